package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.webhook.WebhookDeliveryState;
import dev.threadline.crds.webhook.WebhookDeliveryStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a delivery's status moves with each attempt. */
class DeliveryProgressTest {
  private static final RetrySchedule TWO_RETRIES =
      new RetrySchedule(List.of(Duration.ofSeconds(10), Duration.ofSeconds(40)));
  private static final Instant NOW = Instant.parse("2026-11-01T10:00:00Z");

  @Test
  void failedAttemptsArePendingWithTheNextDueTimeUntilTheScheduleRunsOut() {
    WebhookDeliveryStatus first =
        DeliveryProgress.after(null, DeliveryAttempt.response(500), NOW, TWO_RETRIES);
    assertThat(first.getState()).isEqualTo(WebhookDeliveryState.PENDING);
    assertThat(first.getAttempts()).isEqualTo(1);
    assertThat(first.getLastStatusCode()).isEqualTo(500);
    assertThat(first.getLastError()).isEqualTo("the endpoint answered HTTP 500");
    assertThat(first.getNextAttemptAt()).isEqualTo("2026-11-01T10:00:10Z");
    assertThat(DeliveryProgress.untilNextAttempt(first, NOW.plusSeconds(4)))
        .isEqualTo(Duration.ofSeconds(6));

    WebhookDeliveryStatus second =
        DeliveryProgress.after(
            first,
            DeliveryAttempt.noResponse("no answer within 10 s"),
            NOW.plusSeconds(10),
            TWO_RETRIES);
    assertThat(second.getAttempts()).isEqualTo(2);
    assertThat(second.getLastStatusCode()).isZero();
    assertThat(second.getNextAttemptAt()).isEqualTo("2026-11-01T10:00:50Z");

    WebhookDeliveryStatus third =
        DeliveryProgress.after(
            second, DeliveryAttempt.response(503), NOW.plusSeconds(50), TWO_RETRIES);
    assertThat(third.getState()).isEqualTo(WebhookDeliveryState.FAILED);
    assertThat(third.getAttempts()).isEqualTo(TWO_RETRIES.maxAttempts());
    assertThat(third.getNextAttemptAt()).isNull();
    assertThat(third.getFinishedAt()).isEqualTo("2026-11-01T10:00:50Z");
    assertThat(DeliveryProgress.isFinal(third)).isTrue();
  }

  @Test
  void aTwoHundredSomethingDelivers() {
    WebhookDeliveryStatus pending =
        DeliveryProgress.after(null, DeliveryAttempt.response(502), NOW, TWO_RETRIES);
    WebhookDeliveryStatus done =
        DeliveryProgress.after(
            pending, DeliveryAttempt.response(204), NOW.plusSeconds(10), TWO_RETRIES);
    assertThat(done.getState()).isEqualTo(WebhookDeliveryState.DELIVERED);
    assertThat(done.getAttempts()).isEqualTo(2);
    assertThat(done.getLastError()).isNull();
    assertThat(done.getNextAttemptAt()).isNull();
    assertThat(DeliveryProgress.untilExpiry(done, NOW.plusSeconds(10), Duration.ofDays(7)))
        .isEqualTo(Duration.ofDays(7));
  }

  @Test
  void aRefusedTargetFailsAtOnceAndAMissingSecretIsRetried() {
    WebhookDeliveryStatus refused =
        DeliveryProgress.after(null, DeliveryAttempt.refused("private"), NOW, TWO_RETRIES);
    assertThat(refused.getState()).isEqualTo(WebhookDeliveryState.FAILED);
    assertThat(refused.getLastStatusCode()).isNull();

    WebhookDeliveryStatus noSecret =
        DeliveryProgress.after(
            null, DeliveryAttempt.notSent("Secret a/b not found"), NOW, TWO_RETRIES);
    assertThat(noSecret.getState()).isEqualTo(WebhookDeliveryState.PENDING);
    assertThat(noSecret.getLastError()).isEqualTo("Secret a/b not found");
  }

  @Test
  void aFreshDeliveryIsDueAtOnce() {
    assertThat(DeliveryProgress.untilNextAttempt(null, NOW)).isZero();
    assertThat(DeliveryProgress.isFinal(null)).isFalse();
  }
}
