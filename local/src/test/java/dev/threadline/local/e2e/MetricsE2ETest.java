package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * After a direct and a computer run, both Prometheus endpoints of the local mode (no key) list the
 * product's meters and the framework's.
 */
class MetricsE2ETest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static LocalModeFixture fixture;

  @BeforeAll
  static void start() {
    fixture = LocalModeFixture.start();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void aDirectAndAComputerRunShowInBothScrapes() throws Exception {
    runToTheEnd("Hello!");
    runToTheEnd("Run `echo hello`");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          String operator = scrape(fixture.local().operatorMetricsUrl());
          assertThat(operator)
              .containsPattern("threadline_runs_finished_total\\{[^}]*route=\"direct\"")
              .containsPattern("threadline_runs_finished_total\\{[^}]*route=\"computer\"")
              .containsPattern("threadline_run_duration_seconds_count\\{[^}]*phase=\"completed\"")
              .containsPattern(
                  "operator_sdk_controllers_execution_reconcile_seconds_count\\{[^}]*controller=\"run\"")
              .contains("operator_sdk_controllers_execution_reconcile_success_total");
        });
    String api = scrape(fixture.local().apiMetricsUrl());
    assertThat(api)
        .containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/v1/threads\"")
        .containsPattern("threadline_run_first_event_seconds_count(\\{[^}]*})? [1-9]")
        .containsPattern("threadline_rate_limit_requests_total\\{[^}]*outcome=\"allowed\"");
  }

  private static void runToTheEnd(String message) {
    try (SseStream stream =
        fixture.stream(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"" + message + "\"}]}")) {
      stream.readAll();
      assertThat(stream.types()).last().isEqualTo("stream.completed");
    }
  }

  private static String scrape(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }
}
