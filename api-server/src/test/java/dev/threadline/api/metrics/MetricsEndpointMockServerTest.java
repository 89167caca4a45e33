package dev.threadline.api.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import org.junit.jupiter.api.Test;

/** Prometheus scrapes the management port without a key; the API's port does not serve it. */
class MetricsEndpointMockServerTest {
  private final SharedApiServer shared = SharedApiServer.get();

  @Test
  void requestsAndRateLimitChecksAreScrapedFromTheManagementPort() {
    TestUser user = shared.newUser(SharedApiServer.unique("metrics"));
    assertThat(shared.api().get("/v1/agents", user.key()).status()).isEqualTo(200);

    ApiClient.Response scrape = new ApiClient(shared.metricsUrl()).get("", null);

    assertThat(scrape.status()).isEqualTo(200);
    assertThat(scrape.body())
        .contains("http_server_requests_seconds_count{")
        .contains("uri=\"/v1/agents\"")
        .contains("threadline_rate_limit_requests_total{")
        .contains("outcome=\"allowed\"")
        .contains("threadline_run_first_event_seconds");
  }

  @Test
  void theApiPortDoesNotServeMetrics() {
    ApiClient.Response onApiPort = shared.api().get("/metrics", null);

    assertThat(onApiPort.status()).isIn(401, 404);
    assertThat(onApiPort.body()).doesNotContain("http_server_requests");
  }
}
