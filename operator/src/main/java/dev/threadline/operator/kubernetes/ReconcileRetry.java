package dev.threadline.operator.kubernetes;

import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.time.Duration;

/**
 * How every controller retries a reconcile that failed: after a first wait (1 s unless {@value
 * #FIRST_WAIT_VARIABLE} says otherwise), then each wait twice the one before, at most 5 minutes,
 * and never given up (the framework's default stops after five attempts, leaving an object
 * unreconciled until something else changes it). A failure is logged once per attempt, so a
 * reconcile that keeps failing costs a log line every 5 minutes, not a hot loop.
 */
public final class ReconcileRetry {
  public static final String FIRST_WAIT_VARIABLE = "THREADLINE_OPERATOR_RETRY_FIRST_WAIT_MS";
  public static final Duration DEFAULT_FIRST_WAIT = Duration.ofSeconds(1);
  public static final Duration SHORTEST_FIRST_WAIT = Duration.ofMillis(10);
  static final double GROWTH = 2;
  public static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

  private ReconcileRetry() {}

  /** The retry whose first wait is {@code firstWait} (from 10 ms to the longest wait). */
  public static GenericRetry backoff(Duration firstWait) {
    if (firstWait.compareTo(SHORTEST_FIRST_WAIT) < 0 || firstWait.compareTo(LONGEST_WAIT) > 0) {
      throw new IllegalArgumentException(
          "a reconcile retry's first wait must be from "
              + SHORTEST_FIRST_WAIT.toMillis()
              + " ms to "
              + LONGEST_WAIT.toMillis()
              + " ms, got "
              + firstWait.toMillis()
              + " ms");
    }
    return new GenericRetry()
        .setInitialInterval(firstWait.toMillis())
        .setIntervalMultiplier(GROWTH)
        .setMaxInterval(LONGEST_WAIT.toMillis())
        .withoutMaxAttempts();
  }
}
