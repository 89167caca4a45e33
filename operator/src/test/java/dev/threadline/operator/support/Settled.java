package dev.threadline.operator.support;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.awaitility.Awaitility;

/** Waiting for reconciles to stop: a count that stays the same between two looks. */
public final class Settled {
  private Settled() {}

  /** Waits until {@code count} stops changing; returns its last value. */
  public static long count(LongSupplier count) {
    long[] last = {-1};
    Awaitility.await()
        .pollInterval(Duration.ofMillis(600))
        .atMost(Duration.ofSeconds(30))
        .until(() -> {
          long now = count.getAsLong();
          boolean still = now == last[0];
          last[0] = now;
          return still;
        });
    return last[0];
  }
}
