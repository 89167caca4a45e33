package dev.threadline.api.idempotency;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Deletes expired idempotency records now and then, so keys that are never reused do not pile up.
 * Every replica sweeps; deleting an expired record twice does no harm.
 */
final class IdempotencySweeper implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(IdempotencySweeper.class);

  private final IdempotencyStore store;
  private final IdempotencySettings settings;
  private ScheduledExecutorService timer;

  IdempotencySweeper(IdempotencyStore store, IdempotencySettings settings) {
    this.store = store;
    this.settings = settings;
  }

  @Override
  public synchronized void start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("idempotency-sweep").factory());
    long every = settings.sweepInterval().toMillis();
    timer.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
  }

  private void sweep() {
    try {
      int deleted = store.sweep();
      if (deleted > 0) {
        log.info("Deleted {} expired idempotency records", deleted);
      }
    } catch (RuntimeException failure) {
      log.warn("Idempotency sweep failed; the next one retries: {}", failure.toString());
    }
  }

  @Override
  public synchronized void stop() {
    if (timer != null) {
      timer.shutdownNow();
      timer = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return timer != null;
  }
}
