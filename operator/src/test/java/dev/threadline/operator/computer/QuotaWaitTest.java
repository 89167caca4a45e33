package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class QuotaWaitTest {

  @Test
  void onlyAQuotasRefusalIsOne() {
    String quota =
        "pods \"run-a-1\" is forbidden: exceeded quota: agents, requested: pods=1, used: pods=2,"
            + " limited: pods=2";
    assertThat(QuotaWait.refusal(refused(403, quota))).contains(quota);
    assertThat(QuotaWait.refusal(refused(403, "pods is forbidden: User cannot create"))).isEmpty();
    assertThat(QuotaWait.refusal(refused(409, "exceeded quota"))).isEmpty();
  }

  @Test
  void retriesComeSoonerAtFirstAndNoLaterThanHalfAMinute() {
    assertThat(QuotaWait.nextRetry(Duration.ZERO)).isEqualTo(Duration.ofSeconds(1));
    assertThat(QuotaWait.nextRetry(Duration.ofSeconds(20))).isEqualTo(Duration.ofSeconds(5));
    assertThat(QuotaWait.nextRetry(Duration.ofMinutes(10))).isEqualTo(Duration.ofSeconds(30));
  }

  private static KubernetesClientException refused(int code, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withMessage(message).withReason("Forbidden").build());
  }
}
