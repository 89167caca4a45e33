package dev.threadline.api.stream;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.run.Run;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The updates of one run, as a queue its reader blocks on. It subscribes before it reads the cache,
 * so no change can fall between the snapshot and the notifications. Every version carries the whole
 * event log, so a backlog of changes collapses into its newest.
 */
final class RunFollower implements AutoCloseable {
  private final BlockingQueue<RunUpdate> queue = new LinkedBlockingQueue<>();
  private final RunUpdates.Subscription subscription;

  private RunFollower(
      RunUpdates updates,
      ManagedInformer<Run> cache,
      String namespace,
      String name,
      Optional<Run> kept) {
    subscription = updates.subscribe(namespace, name, queue::offer);
    cache.get(namespace, name).or(() -> kept).ifPresent(run -> queue.offer(RunUpdate.changed(run)));
  }

  /**
   * @param kept the run as the history store keeps it, when it left the Kubernetes API after its
   *     retention (finished: the stream replays it and ends)
   */
  static RunFollower follow(
      RunUpdates updates,
      ManagedInformer<Run> cache,
      String namespace,
      String name,
      Optional<Run> kept) {
    return new RunFollower(updates, cache, namespace, name, kept);
  }

  /** Wakes the reader (its run's deltas arrived) without a new version of the run. */
  void wake() {
    queue.offer(RunUpdate.wake());
  }

  /**
   * The next update, waiting at most {@code timeout}; empty when none came. A deletion or a
   * shutdown wins over changes queued with it, and a change over wakes.
   */
  Optional<RunUpdate> next(Duration timeout) throws InterruptedException {
    RunUpdate first = queue.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
    if (first == null) {
      return Optional.empty();
    }
    List<RunUpdate> backlog = new ArrayList<>();
    backlog.add(first);
    queue.drainTo(backlog);
    RunUpdate newest = backlog.getLast();
    for (RunUpdate update : backlog) {
      if (update.kind() == RunUpdate.Kind.DELETED || update.kind() == RunUpdate.Kind.SHUTDOWN) {
        return Optional.of(update);
      }
      if (update.kind() == RunUpdate.Kind.CHANGED) {
        newest = update;
      }
    }
    return Optional.of(newest);
  }

  @Override
  public void close() {
    subscription.close();
  }
}
