package dev.threadline.api.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class HealthReportTest {
  private final JsonMapper json = JsonMapper.builder().build();

  @Test
  void okWhenConnectedAndSynced() {
    HealthReport report = HealthReport.readiness(true, true);

    assertThat(report.healthy()).isTrue();
    assertThat(json.writeValueAsString(report))
        .isEqualTo(
            "{\"status\":\"ok\",\"checks\":{\"kubernetes\":\"up\",\"informers\":\"synced\"}}");
  }

  @Test
  void unavailableNamesTheFailingCheck() {
    assertThat(json.writeValueAsString(HealthReport.readiness(true, false)))
        .isEqualTo(
            "{\"status\":\"unavailable\",\"checks\":{\"kubernetes\":\"up\",\"informers\":\"syncing\"}}");
    assertThat(json.writeValueAsString(HealthReport.readiness(false, true)))
        .isEqualTo(
            "{\"status\":\"unavailable\",\"checks\":{\"kubernetes\":\"down\",\"informers\":\"synced\"}}");
    assertThat(HealthReport.readiness(false, false).healthy()).isFalse();
  }

  @Test
  void livenessIsJustOk() {
    assertThat(json.writeValueAsString(HealthReport.alive())).isEqualTo("{\"status\":\"ok\"}");
  }
}
