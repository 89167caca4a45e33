package dev.threadline.core.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes the runner's events, one line each, flushed at once so a follower of the Pod's log sees
 * every event as it happens. Thread-safe: it numbers the events in the order they are written. Once
 * a terminal event ({@code result} or {@code failed}) is written, later events are dropped, so that
 * a cancellation racing with the end of a run still leaves exactly one last line.
 */
public final class RunnerEventWriter {

  private final PrintStream out;
  private final Clock clock;
  private long lastSeq;
  private boolean finished;

  public RunnerEventWriter(PrintStream out) {
    this(out, Clock.systemUTC());
  }

  public RunnerEventWriter(PrintStream out, Clock clock) {
    this.out = Objects.requireNonNull(out, "out");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Writes one event.
   *
   * @return the event as written, or empty when the run already ended with a terminal event
   */
  public synchronized Optional<RunnerEvent> emit(RunnerEventType type, ObjectNode data) {
    Objects.requireNonNull(type, "type");
    if (finished) {
      return Optional.empty();
    }
    RunnerEvent event = new RunnerEvent(lastSeq + 1, clock.instant(), type, data);
    out.println(RunnerEventCodec.encode(event));
    out.flush();
    lastSeq = event.seq();
    finished = type.terminal();
    return Optional.of(event);
  }

  /** Whether a {@code result} or {@code failed} line has been written. */
  public synchronized boolean finished() {
    return finished;
  }

  /** The seq of the last event written; 0 before the first. */
  public synchronized long lastSeq() {
    return lastSeq;
  }
}
