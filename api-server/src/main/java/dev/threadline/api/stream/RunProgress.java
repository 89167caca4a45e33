package dev.threadline.api.stream;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Follows one run: each batch of its log's events (read from the history store after the last one
 * seen, up to what the Run's version {@linkplain #announced announces}) yields their stream events,
 * and, once the run is finished and its log read to the end, whatever terminal events the log did
 * not produce. Events at or below the last seq seen are ignored, so a batch read twice adds
 * nothing.
 *
 * <p>Every event gets its {@link EventCursor}: the seq of the log entry it came from and its index
 * among that entry's events. Replaying a run's log from its start always yields the same events at
 * the same cursors, which is what makes a stream resumable anywhere. Terminal events built from the
 * status (not from a log entry) follow the events of the last entry.
 */
public final class RunProgress {
  private final RunEventMapper mapper;
  private long lastSeq;

  /** The index the next event of {@code lastSeq} gets; at seq 0, index 0 is thread.created's. */
  private int nextIndex = 1;

  public RunProgress(String userId) {
    this.mapper = new RunEventMapper(userId);
  }

  /** The seq of the last log entry seen: the next read starts after it. */
  public long lastSeq() {
    return lastSeq;
  }

  /**
   * The entries the stream reads up to on this version of the Run: those its {@code lastEventSeq}
   * announces (0 for a Run that announces none). The store may hold later ones already (content is
   * written before the status), but they are mapped only with the version that announces them, so
   * that a live stream and a replay of the finished run make the same events.
   */
  public static long announced(Run run) {
    return Optional.ofNullable(run.getStatus()).map(RunStatus::getLastEventSeq).orElse(0L);
  }

  /** The stream events of {@code batch} (the log's next entries, oldest first), with cursors. */
  public List<StreamFrame> advance(Run run, List<LogEvent> batch) {
    String runId = ResourceIds.toId(run.getMetadata().getName());
    List<StreamFrame> frames = new ArrayList<>();
    for (LogEvent event : batch) {
      if (event.seq() <= lastSeq) {
        continue;
      }
      lastSeq = event.seq();
      nextIndex = 0;
      for (StreamEvent mapped : mapper.map(run, event)) {
        frames.add(new StreamFrame(new EventCursor(runId, lastSeq, nextIndex++), mapped));
      }
    }
    return frames;
  }

  /**
   * The terminal events a finished run's log did not produce (call once its log is read to the
   * end); empty while the run goes on.
   */
  public List<StreamFrame> finish(Run run) {
    String runId = ResourceIds.toId(run.getMetadata().getName());
    List<StreamFrame> frames = new ArrayList<>();
    for (StreamEvent terminal : mapper.finish(run)) {
      frames.add(new StreamFrame(new EventCursor(runId, lastSeq, nextIndex++), terminal));
    }
    return frames;
  }

  /** Whether the stream has received its terminal events. */
  public boolean finished() {
    return mapper.finished();
  }
}
