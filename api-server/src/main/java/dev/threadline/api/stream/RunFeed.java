package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run's contract events as they come, for a stream in another protocol (A2A): the follower, log
 * reads and mapping of {@link RunStreams}, without its SSE framing, cursors and text deltas. Made
 * by {@link RunStreams#feed}.
 */
public final class RunFeed implements AutoCloseable {
  private final RunFollower follower;
  private final RunProgress progress;
  private final RunLog runLog;

  RunFeed(RunFollower follower, RunProgress progress, RunLog runLog) {
    this.follower = follower;
    this.progress = progress;
    this.runLog = runLog;
  }

  /** What one wait brought. */
  public sealed interface Step {}

  /** A new version of the run, with the events it announces (maybe none). */
  public record Changed(Run run, List<StreamEvent> events) implements Step {}

  /** Nothing within the wait. */
  public record Quiet() implements Step {}

  /** The run was deleted, or the server shuts down: the feed ends without the run's end. */
  public record Ended(String reason) implements Step {}

  /** The next step, waiting at most {@code wait}. */
  public Step next(Duration wait) throws InterruptedException {
    Optional<RunUpdate> update = follower.next(wait);
    if (update.isEmpty()) {
      return new Quiet();
    }
    return switch (update.get().kind()) {
      case DELETED -> new Ended("The run was deleted");
      case SHUTDOWN -> new Ended("The server is shutting down; the run goes on");
      case WAKE -> new Quiet();
      case CHANGED -> changed(update.get().run());
    };
  }

  private Changed changed(Run run) {
    List<StreamEvent> events = new ArrayList<>();
    long announced = RunProgress.announced(run);
    while (progress.lastSeq() < announced) {
      List<LogEvent> batch = runLog.between(run, progress.lastSeq(), announced);
      if (batch.isEmpty()) {
        break; // announced but not (yet) readable: the next version reads on
      }
      progress.advance(run, batch).forEach(frame -> events.add(frame.event()));
    }
    progress.finish(run).forEach(frame -> events.add(frame.event()));
    return new Changed(run, events);
  }

  /** Whether the run's terminal events were delivered. */
  public boolean finished() {
    return progress.finished();
  }

  @Override
  public void close() {
    follower.close();
  }
}
