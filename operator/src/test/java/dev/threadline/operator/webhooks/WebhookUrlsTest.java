package dev.threadline.operator.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WebhookUrlsTest {
  @Test
  void logsNameTheReceiversOriginNeverItsPathOrQuery() {
    assertThat(WebhookUrls.origin("https://hooks.example.com/services/T0/B0/s3cr3t?token=abc"))
        .isEqualTo("https://hooks.example.com");
    assertThat(WebhookUrls.origin("http://127.0.0.1:8099/hook")).isEqualTo("http://127.0.0.1:8099");
    assertThat(WebhookUrls.origin("not a url")).isEqualTo("an invalid URL");
  }
}
