package dev.threadline.operator.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * When to try a delivery again: exponential backoff with a bounded number of attempts. The default
 * makes 5 attempts: at once, then after 10 s, 40 s, 2.5 min and 10 min (about 13 min in all),
 * enough to ride out a receiver's restart or deploy without hammering it.
 */
public record RetrySchedule(List<Duration> delays) {
  public static final RetrySchedule DEFAULT = exponential(Duration.ofSeconds(10), 4, 4);

  public RetrySchedule {
    delays = List.copyOf(delays);
  }

  /** {@code retries} delays, the first {@code first}, each {@code factor} times the one before. */
  public static RetrySchedule exponential(Duration first, int factor, int retries) {
    Duration[] delays = new Duration[retries];
    Duration next = first;
    for (int i = 0; i < retries; i++) {
      delays[i] = next;
      next = next.multipliedBy(factor);
    }
    return new RetrySchedule(List.of(delays));
  }

  /** The most attempts a message gets (the first one and every retry). */
  public int maxAttempts() {
    return delays.size() + 1;
  }

  /**
   * How long to wait after failed attempt number {@code attempt} (from 1); empty when it was the
   * last.
   */
  public Optional<Duration> delayAfter(int attempt) {
    return attempt <= delays.size() ? Optional.of(delays.get(attempt - 1)) : Optional.empty();
  }
}
