package dev.threadline.local.kubelet.controllers;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A controller's work queue: objects (by {@code namespace/name}) are reconciled one at a time on a
 * single thread — so a controller never races itself into duplicate children — and requests for an
 * object already waiting are merged. A reconcile may ask to run again at a time (a deadline, a TTL,
 * a schedule): one timer per object, replaced by each new request, never a polling loop.
 */
final class ReconcileQueue implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReconcileQueue.class);

  private final Function<ObjectKey, Optional<Instant>> reconciler;
  private final InstantSource clock;
  private final ScheduledExecutorService worker;
  private final Set<ObjectKey> waiting = ConcurrentHashMap.newKeySet();
  private final Map<ObjectKey, ScheduledFuture<?>> timers = new ConcurrentHashMap<>();

  /** {@code reconciler} returns when it wants to run again for that object, if ever. */
  ReconcileQueue(
      String name, InstantSource clock, Function<ObjectKey, Optional<Instant>> reconciler) {
    this.reconciler = reconciler;
    this.clock = clock;
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name(name).daemon().factory());
  }

  void enqueue(ObjectKey key) {
    if (waiting.add(key)) {
      submit(() -> run(key));
    }
  }

  /** Forgets an object's timer (it was deleted). */
  void forget(ObjectKey key) {
    ScheduledFuture<?> timer = timers.remove(key);
    if (timer != null) {
      timer.cancel(false);
    }
  }

  private void run(ObjectKey key) {
    waiting.remove(key);
    Optional<Instant> again;
    try {
      again = reconciler.apply(key);
    } catch (RuntimeException e) {
      if (worker.isShutdown()) {
        return; // interrupted by close(): not a failure
      }
      LOG.warn("reconcile of {} failed; retrying in 5 s", key, e);
      again = Optional.of(clock.instant().plusSeconds(5));
    }
    forget(key);
    again.ifPresent(at -> {
      long delay = Math.max(0, Duration.between(clock.instant(), at).toMillis());
      try {
        // A few milliseconds late rather than early: "now" must have reached the requested time.
        timers.put(key, worker.schedule(() -> enqueue(key), delay + 5, TimeUnit.MILLISECONDS));
      } catch (RejectedExecutionException e) {
        // closing
      }
    });
  }

  private void submit(Runnable task) {
    try {
      worker.execute(task);
    } catch (RejectedExecutionException e) {
      LOG.debug("queue closed; request dropped");
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  record ObjectKey(String namespace, String name) {
    @Override
    public String toString() {
      return namespace + "/" + name;
    }
  }
}
