package dev.threadline.operator.schedule;

import dev.threadline.core.usage.Costs;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/**
 * How a schedule's firings went, counted from the Runs labelled with it: all of them, those that
 * completed, and those that failed or were cancelled (what did not succeed). Runs still in progress
 * count only in {@code runs}. Deleting a thread deletes its run, and so its count. The cost is
 * summed as every total is ({@link Costs}).
 */
record ScheduleRunCounts(
    long runs, long successes, long failures, double totalCost, Optional<Instant> lastRunAt) {

  static ScheduleRunCounts of(Collection<Run> runs) {
    long successes = 0;
    long failures = 0;
    Instant last = null;
    double cost = 0;
    for (Run run : runs) {
      if (run.getStatus() != null && run.getStatus().getCost() != null) {
        cost = Costs.sum(cost, run.getStatus().getCost());
      }
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
    return new ScheduleRunCounts(runs.size(), successes, failures, cost, Optional.ofNullable(last));
  }
}
