package dev.threadline.operator.thread;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/**
 * When a thread's status write waits for its runs to settle, so that a direct run costs its thread
 * one status write, not three (idle before the run exists, running, idle with the totals): a thread
 * created a moment ago and never rolled up, or one whose newest run was created a moment ago and
 * has not started, waits until {@link #WINDOW} after that creation. A direct run ends in
 * milliseconds, and its end's event rolls the thread up once, with its totals; a run still pending
 * after the window (a slow model, a computer run) is shown as running then. Decided from the
 * objects alone, so a restart decides the same.
 *
 * <p>What clients read is not delayed: the API server rolls a thread up from the cached runs itself
 * (its {@code ThreadRollup}); the status is what {@code kubectl} and GitOps tools read.
 */
final class StatusSettling {
  /** The longest a thread's status waits for a run that has just been created. */
  static final Duration WINDOW = Duration.ofSeconds(2);

  private StatusSettling() {}

  /** How long the thread's write waits from {@code now}; empty to write now. */
  static Optional<Duration> wait(ConversationThread thread, Collection<Run> runs, Instant now) {
    Instant newest =
        runs.isEmpty()
            ? thread.getStatus() == null ? createdAt(thread, now) : null
            : runs.stream()
                .filter(StatusSettling::notStarted)
                .map(run -> createdAt(run, now))
                .max(Instant::compareTo)
                .orElse(null);
    if (newest == null) {
      return Optional.empty();
    }
    // A creation time ahead of this clock (another machine's) waits the window at most.
    Duration left = Duration.between(now, newest.plus(WINDOW));
    if (left.compareTo(WINDOW) > 0) {
      left = WINDOW;
    }
    return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
  }

  private static boolean notStarted(Run run) {
    return RunPhase.of(run) == RunPhase.PENDING
        && (run.getStatus() == null || run.getStatus().getStartedAt() == null);
  }

  private static Instant createdAt(HasMetadata object, Instant now) {
    return Timestamps.parse(object.getMetadata().getCreationTimestamp()).orElse(now);
  }
}
