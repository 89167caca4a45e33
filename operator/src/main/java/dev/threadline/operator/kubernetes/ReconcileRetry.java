package dev.threadline.operator.kubernetes;

import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.time.Duration;

/**
 * How every controller retries a reconcile that failed: after 1 s, then each wait twice the one
 * before, at most 5 minutes, and never given up (the framework's default stops after five attempts,
 * leaving an object unreconciled until something else changes it). A failure is logged once per
 * attempt, so a reconcile that keeps failing costs a log line every 5 minutes, not a hot loop.
 */
public final class ReconcileRetry {
  static final Duration FIRST_WAIT = Duration.ofSeconds(1);
  static final double GROWTH = 2;
  static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

  private ReconcileRetry() {}

  public static GenericRetry backoff() {
    return new GenericRetry()
        .setInitialInterval(FIRST_WAIT.toMillis())
        .setIntervalMultiplier(GROWTH)
        .setMaxInterval(LONGEST_WAIT.toMillis())
        .withoutMaxAttempts();
  }
}
