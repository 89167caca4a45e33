package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * After a direct and a computer run, both Prometheus endpoints of the local mode (no key) list the
 * product's meters and the framework's.
 */
class MetricsE2ETest {
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void aDirectAndAComputerRunShowInBothScrapes() throws Exception {
    fixture.runToTheEnd("Hello!");
    fixture.runToTheEnd("Run `echo hello`");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          String operator = fixture.scrape(fixture.local().operatorMetricsUrl());
          assertThat(operator)
              .containsPattern("threadline_runs_finished_total\\{[^}]*route=\"direct\"")
              .containsPattern("threadline_runs_finished_total\\{[^}]*route=\"computer\"")
              .containsPattern("threadline_run_duration_seconds_count\\{[^}]*phase=\"completed\"")
              .containsPattern(
                  "operator_sdk_controllers_execution_reconcile_seconds_count\\{[^}]*controller=\"run\"")
              .contains("operator_sdk_controllers_execution_reconcile_success_total");
        });
    String api = fixture.scrape(fixture.local().apiMetricsUrl());
    assertThat(api)
        .containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/v1/threads\"")
        .containsPattern("threadline_run_first_event_seconds_count(\\{[^}]*})? [1-9]")
        .containsPattern("threadline_rate_limit_requests_total\\{[^}]*outcome=\"allowed\"");
  }
}
