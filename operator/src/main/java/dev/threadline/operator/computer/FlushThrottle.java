package dev.threadline.operator.computer;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Coalesces "there is something to write" signals: the first signal (and any urgent one) flushes at
 * once, later ones at most once per interval, so a chatty run costs a few status writes a second
 * while a quiet one is written as each event arrives. Nothing waits: a flush that must be delayed
 * is scheduled.
 */
final class FlushThrottle {
  private final ScheduledExecutorService scheduler;
  private final Runnable flush;
  private final long intervalNanos;
  private long lastFlush;
  private boolean flushedOnce;
  private boolean scheduled;

  FlushThrottle(ScheduledExecutorService scheduler, Duration interval, Runnable flush) {
    this.scheduler = scheduler;
    this.intervalNanos = interval.toNanos();
    this.flush = flush;
  }

  /** Flush now: the first event, the last one, or the end of the log. */
  void now() {
    synchronized (this) {
      mark();
    }
    flush.run();
  }

  /** Flush now if the last flush was long enough ago, else once the interval has passed. */
  void soon() {
    synchronized (this) {
      if (scheduled) {
        return;
      }
      long wait = flushedOnce ? lastFlush + intervalNanos - System.nanoTime() : 0;
      if (wait > 0) {
        scheduled = true;
        scheduler.schedule(this::fire, wait, TimeUnit.NANOSECONDS);
        return;
      }
      mark();
    }
    flush.run();
  }

  private void fire() {
    synchronized (this) {
      scheduled = false;
      mark();
    }
    flush.run();
  }

  private void mark() {
    lastFlush = System.nanoTime();
    flushedOnce = true;
  }
}
