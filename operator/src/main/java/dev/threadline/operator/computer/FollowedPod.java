package dev.threadline.operator.computer;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the operator has read so far of one agent Pod's log: the runner's events not yet known to be
 * recorded in the Run, the terminal event ({@code result} or {@code failed}) once it came, and
 * whether the log has ended. The log is always read from its start; events are identified by the
 * runner's own {@code seq}, so reading again after a restart or a broken stream duplicates nothing.
 */
final class FollowedPod implements PodLogFollower.Listener {
  private final String podUid;
  private final FlushThrottle throttle;
  private final List<RunnerEvent> pending = new ArrayList<>();
  private PodLogFollower.Following following;
  private long lastSeq;
  private RunnerEvent terminal;
  private boolean ended;
  private Instant endedAt;

  FollowedPod(String podUid, FlushThrottle throttle) {
    this.podUid = podUid;
    this.throttle = throttle;
  }

  /** What the reconciler acts on. */
  record Snapshot(
      List<RunnerEvent> pending, Optional<RunnerEvent> terminal, boolean ended, Instant endedAt) {
    /** The log is fully read: ended, or the runner said its last word. */
    boolean complete() {
      return ended || terminal.isPresent();
    }

    /**
     * The stream stopped before the runner's last word: the container ended, or the stream broke.
     */
    boolean endedEarly() {
      return ended && terminal.isEmpty();
    }
  }

  String podUid() {
    return podUid;
  }

  synchronized void attach(PodLogFollower.Following following) {
    this.following = following;
  }

  @Override
  public void line(String line) {
    Optional<RunnerEvent> parsed = RunnerEventCodec.parse(line);
    if (parsed.isEmpty()) {
      return;
    }
    RunnerEvent event = parsed.get();
    boolean urgent;
    synchronized (this) {
      if (event.seq() <= lastSeq || terminal != null) {
        return;
      }
      lastSeq = event.seq();
      urgent = event.type().terminal();
      if (urgent) {
        terminal = event;
      } else {
        pending.add(event);
      }
    }
    if (urgent) {
      throttle.now();
    } else {
      throttle.soon();
    }
  }

  @Override
  public void ended(Exception failure) {
    synchronized (this) {
      ended = true;
      endedAt = Instant.now();
    }
    throttle.now();
  }

  /**
   * The events after {@code recordedSeq} (the Run's {@code status.runnerSeq}); older ones are
   * recorded and forgotten here.
   */
  synchronized Snapshot snapshot(long recordedSeq) {
    pending.removeIf(event -> event.seq() <= recordedSeq);
    return new Snapshot(List.copyOf(pending), Optional.ofNullable(terminal), ended, endedAt);
  }

  void stop() {
    PodLogFollower.Following current;
    synchronized (this) {
      current = following;
    }
    if (current != null) {
      current.close();
    }
  }
}
