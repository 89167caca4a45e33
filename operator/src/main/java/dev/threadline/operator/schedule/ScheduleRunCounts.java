package dev.threadline.operator.schedule;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/**
 * How a schedule's firings went, counted from the Runs labelled with it: all of them, those that
 * completed, and those that failed or were cancelled (what did not succeed). Runs still in
 * progress count only in {@code runs}. Deleting a thread deletes its run, and so its count.
 */
record ScheduleRunCounts(long runs, long successes, long failures, Optional<Instant> lastRunAt) {

  static ScheduleRunCounts of(Collection<Run> runs) {
    long successes = 0;
    long failures = 0;
    Instant last = null;
    for (Run run : runs) {
      RunPhase phase = RunPhase.of(run);
      if (phase == RunPhase.COMPLETED) {
        successes++;
      } else if (phase == RunPhase.FAILED || phase == RunPhase.CANCELLED) {
        failures++;
      }
      Instant created = Timestamps.parse(run.getMetadata().getCreationTimestamp()).orElse(null);
      if (created != null && (last == null || created.isAfter(last))) {
        last = created;
      }
    }
    return new ScheduleRunCounts(runs.size(), successes, failures, Optional.ofNullable(last));
  }
}
