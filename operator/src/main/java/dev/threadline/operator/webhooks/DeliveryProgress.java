package dev.threadline.operator.webhooks;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.webhook.WebhookDeliveryState;
import dev.threadline.crds.webhook.WebhookDeliveryStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a delivery stands after an attempt, and what is due when: pure, so restarts only need the
 * status.
 */
public final class DeliveryProgress {
  private DeliveryProgress() {}

  /** The status after {@code attempt}, made at {@code now}, given the status before it. */
  public static WebhookDeliveryStatus after(
      WebhookDeliveryStatus before, DeliveryAttempt attempt, Instant now, RetrySchedule retries) {
    WebhookDeliveryStatus next = new WebhookDeliveryStatus();
    int attempts = attemptsOf(before) + 1;
    next.setAttempts(attempts);
    next.setLastAttemptAt(Timestamps.format(now));
    next.setLastStatusCode(attempt.statusCode());
    next.setLastError(attempt.error());
    if (attempt.delivered()) {
      next.setState(WebhookDeliveryState.DELIVERED);
      next.setFinishedAt(Timestamps.format(now));
      return next;
    }
    Optional<Duration> wait = attempt.retryable() ? retries.delayAfter(attempts) : Optional.empty();
    if (wait.isPresent()) {
      next.setState(WebhookDeliveryState.PENDING);
      next.setNextAttemptAt(Timestamps.format(now.plus(wait.get())));
    } else {
      next.setState(WebhookDeliveryState.FAILED);
      next.setFinishedAt(Timestamps.format(now));
    }
    return next;
  }

  /**
   * How long until the next attempt is due (zero or negative: now), for a delivery still pending.
   */
  public static Duration untilNextAttempt(WebhookDeliveryStatus status, Instant now) {
    return Timestamps.parse(status == null ? null : status.getNextAttemptAt())
        .map(due -> Duration.between(now, due))
        .orElse(Duration.ZERO);
  }

  /** How long until a finished delivery's record is to be deleted (zero or negative: now). */
  public static Duration untilExpiry(
      WebhookDeliveryStatus status, Instant now, Duration retention) {
    return Timestamps.parse(status.getFinishedAt())
        .or(() -> Timestamps.parse(status.getLastAttemptAt()))
        .map(finished -> Duration.between(now, finished.plus(retention)))
        .orElse(Duration.ZERO);
  }

  public static boolean isFinal(WebhookDeliveryStatus status) {
    return status != null && status.getState() != null && status.getState().isFinal();
  }

  static int attemptsOf(WebhookDeliveryStatus status) {
    return status == null ? 0 : Objects.requireNonNullElse(status.getAttempts(), 0);
  }
}
