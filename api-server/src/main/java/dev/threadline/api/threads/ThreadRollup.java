package dev.threadline.api.threads;

import dev.threadline.core.threads.ThreadTotals;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadState;
import dev.threadline.crds.thread.ThreadStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread's state and totals as a client should see them now. The operator writes them into {@code
 * Thread.status}, but later than the runs change (right after a post the thread must already read
 * {@code running}); so whenever the cache holds the thread's runs, the same rollup the operator
 * uses ({@link ThreadTotals}) is computed from them, and the stored status only stands in for runs
 * this replica cannot see.
 */
final class ThreadRollup {
  private ThreadRollup() {}

  static ThreadTotals of(ConversationThread thread, List<Run> runs) {
    if (!runs.isEmpty()) {
      return ThreadTotals.of(
          thread.getStatus() == null ? null : thread.getStatus().getArchived(), runs);
    }
    return Optional.ofNullable(thread.getStatus())
        .filter(status -> status.getStatus() != null)
        .map(ThreadRollup::fromStatus)
        .orElseGet(() -> ThreadTotals.of(List.of()));
  }

  private static ThreadTotals fromStatus(ThreadStatus status) {
    ThreadState state;
    try {
      state = ThreadState.fromValue(status.getStatus());
    } catch (IllegalArgumentException unknown) {
      state = ThreadState.ACTIVE;
    }
    return new ThreadTotals(
        state,
        status.getActiveRun(),
        Objects.requireNonNullElse(status.getMessageCount(), 0L),
        status.tokens(),
        Objects.requireNonNullElse(status.getTotalCost(), 0.0));
  }
}
