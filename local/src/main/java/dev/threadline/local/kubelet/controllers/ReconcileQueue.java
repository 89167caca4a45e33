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
 * a schedule): one timer per object, replaced by each new request, never a polling loop. A
 * reconcile that fails is tried again after 1 s, then each wait twice the one before, up to 5
 * minutes (one log line per attempt, the stack trace at debug), until one succeeds.
 */
final class ReconcileQueue implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReconcileQueue.class);

  private final Function<ObjectKey, Optional<Instant>> reconciler;
  private final InstantSource clock;
  private final ScheduledExecutorService worker;
  private final Set<ObjectKey> waiting = ConcurrentHashMap.newKeySet();
  private final Map<ObjectKey, ScheduledFuture<?>> timers = new ConcurrentHashMap<>();

  /** Per object, how many reconciles in a row have failed (touched by the worker only). */
  private final Map<ObjectKey, Integer> failures = new ConcurrentHashMap<>();

  static final Duration FIRST_RETRY = Duration.ofSeconds(1);
  static final Duration LONGEST_RETRY = Duration.ofMinutes(5);

  /** The longest timer: a later time is looked at again then (and the timer set again). */
  static final Duration LONGEST_WAIT = Duration.ofHours(24);

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

  /** Forgets an object's timer and failures (it was deleted). */
  void forget(ObjectKey key) {
    cancelTimer(key);
    failures.remove(key);
  }

  private void cancelTimer(ObjectKey key) {
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
      failures.remove(key);
    } catch (RuntimeException e) {
      if (worker.isShutdown()) {
        return; // interrupted by close(): not a failure
      }
      int failed = failures.merge(key, 1, Integer::sum);
      Duration retry = retryAfter(failed);
      LOG.warn(
          "reconcile of {} failed ({} in a row); retrying in {} s: {}",
          key,
          failed,
          retry.toSeconds(),
          e.toString());
      LOG.debug("reconcile of {} failed", key, e);
      again = Optional.of(clock.instant().plus(retry));
    }
    cancelTimer(key);
    again.ifPresent(at -> {
      long delay = delayUntil(clock.instant(), at).toMillis();
      try {
        // A few milliseconds late rather than early: "now" must have reached the requested time.
        timers.put(key, worker.schedule(() -> enqueue(key), delay + 5, TimeUnit.MILLISECONDS));
      } catch (RejectedExecutionException e) {
        // closing
      }
    });
  }

  /** The wait after the {@code failed}-th failure in a row: 1 s, 2 s, 4 s … at most 5 minutes. */
  static Duration retryAfter(int failed) {
    int doublings = Math.min(Math.max(0, failed - 1), 30);
    Duration wait = FIRST_RETRY.multipliedBy(1L << doublings);
    return wait.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait;
  }

  /** From {@code now} to {@code at}, within 0 and {@link #LONGEST_WAIT} (never an overflow). */
  static Duration delayUntil(Instant now, Instant at) {
    if (!at.isAfter(now)) {
      return Duration.ZERO;
    }
    Duration delay = Duration.between(now, at);
    return delay.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : delay;
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
