package dev.threadline.api.stream;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one run across its status changes: each snapshot yields the stream events of the log
 * entries not seen before (by {@code seq}), and, once the run is finished, whatever terminal events
 * its log did not produce. Snapshots may repeat or skip versions; only new seqs count.
 *
 * <p>Every event gets its {@link EventCursor}: the seq of the log entry it came from and its index
 * among that entry's events. Replaying a run's log from its start always yields the same events at
 * the same cursors, which is what makes a stream resumable anywhere. Terminal events built from the
 * status (not from a log entry) follow the events of the last entry.
 */
public final class RunProgress {
  private static final Logger log = LoggerFactory.getLogger(RunProgress.class);

  private final RunEventMapper mapper;
  private boolean begun;
  private long lastSeq;

  /** The index the next event of {@code lastSeq} gets; at seq 0, index 0 is thread.created's. */
  private int nextIndex = 1;

  public RunProgress(String userId) {
    this.mapper = new RunEventMapper(userId);
  }

  /** The events this snapshot adds to the stream, in order, each with its cursor. */
  public List<StreamFrame> advance(Run run) {
    String runId = ResourceIds.toId(run.getMetadata().getName());
    List<RunEvent> log =
        Optional.ofNullable(run.getStatus()).map(RunStatus::getEvents).orElse(List.of());
    beginOnce(run, log);
    List<StreamFrame> frames = new ArrayList<>();
    List<RunEvent> fresh =
        log.stream()
            .filter(event -> event.getSeq() != null && event.getSeq() > lastSeq)
            .sorted(Comparator.comparingLong(RunEvent::getSeq))
            .toList();
    if (!fresh.isEmpty() && lastSeq > 0 && fresh.getFirst().getSeq() > lastSeq + 1) {
      RunProgress.log.warn(
          "Run {}: events {}..{} left the bounded log before this stream saw them",
          runId,
          lastSeq + 1,
          fresh.getFirst().getSeq() - 1);
    }
    for (RunEvent event : fresh) {
      lastSeq = Objects.requireNonNull(event.getSeq());
      nextIndex = 0;
      for (StreamEvent mapped : mapper.map(run, event)) {
        frames.add(new StreamFrame(new EventCursor(runId, lastSeq, nextIndex++), mapped));
      }
    }
    for (StreamEvent terminal : mapper.finish(run)) {
      frames.add(new StreamFrame(new EventCursor(runId, lastSeq, nextIndex++), terminal));
    }
    return frames;
  }

  /** Whether the stream has received its terminal events. */
  public boolean finished() {
    return mapper.finished();
  }

  /**
   * A log that lost its oldest entries lost the run's start with them: the once-only events that
   * start made (computer.starting, response.started) belong to dropped positions, and a replay must
   * not invent them at later ones, where the original stream had other events.
   */
  private void beginOnce(Run run, List<RunEvent> log) {
    if (begun) {
      return;
    }
    begun = true;
    long dropped = Optional.ofNullable(run.getStatus()).map(RunStatus::getDroppedEvents).orElse(0L);
    if (dropped > 0 && !log.isEmpty()) {
      mapper.continueAfterDroppedStart();
    }
  }
}
