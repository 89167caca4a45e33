package dev.threadline.helm;

import static dev.threadline.helm.RenderedChart.container;
import static dev.threadline.helm.RenderedChart.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The metrics ports, their Services, the optional ServiceMonitor and the Grafana dashboard. */
class ChartMetricsTest {
  private static final RenderedChart DEFAULTS = RenderedChart.withDefaults();

  @Test
  void theApiServersMetricsPortIsServedOnlyByItsOwnService() {
    JsonNode apiServer = container(DEFAULTS.get("Deployment", "threadline-api-server"));
    assertThat(env(apiServer).get("THREADLINE_API_MANAGEMENT_PORT").path("value").asText())
        .isEqualTo("9090");
    assertThat(apiServer.at("/ports/1/name").asText()).isEqualTo("http-metrics");
    assertThat(apiServer.at("/ports/1/containerPort").asInt()).isEqualTo(9090);

    JsonNode metrics = DEFAULTS.get("Service", "threadline-api-server-metrics");
    assertThat(metrics.at("/spec/ports/0/targetPort").asText()).isEqualTo("http-metrics");
    assertThat(metrics.at("/metadata/labels/threadline.dev~1metrics").asText()).isEqualTo("true");
    assertThat(DEFAULTS.get("Service", "threadline-api-server").at("/spec/ports"))
        .as("the API's Service publishes the API port alone")
        .hasSize(1);
  }

  @Test
  void theServiceMonitorIsOffByDefaultAndScrapesBothMetricsServicesWhenOn() {
    assertThat(DEFAULTS.ofKind("ServiceMonitor")).isEmpty();

    RenderedChart monitored =
        RenderedChart.render(t ->
            t.set("serviceMonitor.enabled", true).set("serviceMonitor.labels.release", "prom"));
    JsonNode monitor = monitored.get("ServiceMonitor", "threadline");

    assertThat(monitor.at("/metadata/labels/release").asText()).isEqualTo("prom");
    assertThat(monitor.at("/spec/endpoints/0/port").asText()).isEqualTo("http-metrics");
    assertThat(monitor.at("/spec/endpoints/0/path").asText()).isEqualTo("/metrics");
    JsonNode selector = monitor.at("/spec/selector/matchLabels");
    assertThat(monitored.ofKind("Service"))
        .filteredOn(service -> matches(selector, service))
        .extracting(service -> service.at("/metadata/name").asText())
        .containsExactlyInAnyOrder("threadline-operator-metrics", "threadline-api-server-metrics");
  }

  @Test
  void theNetworkPolicyLetsScrapersReachTheApiServersMetricsPort() {
    RenderedChart policed =
        RenderedChart.render(
            t -> t.set("networkPolicy.enabled", true).set("apiServer.metricsPort", 9102));
    JsonNode ingress = policed.get("NetworkPolicy", "threadline-api-server").at("/spec/ingress");

    assertThat(ingress.findValuesAsText("port")).contains("8080", "9102");
  }

  @Test
  void theDashboardIsGrafanaJsonOverTheMetricsWeExport() throws IOException {
    Path dashboard = ChartPaths.module().resolve("dashboards/threadline.json");
    JsonNode json = new ObjectMapper().readTree(dashboard.toFile());

    assertThat(json.path("title").asText()).isEqualTo("Threadline");
    assertThat(json.path("panels").findValuesAsText("expr"))
        .anySatisfy(expr -> assertThat(expr).contains("threadline_runs_finished_total"))
        .anySatisfy(expr -> assertThat(expr).contains("http_server_requests_seconds"))
        .anySatisfy(expr -> assertThat(expr).contains("operator_sdk_"));
    assertThat(Files.readString(dashboard)).doesNotContain("\"datasource\": \"Prometheus\"");
  }

  private static boolean matches(JsonNode selector, JsonNode object) {
    JsonNode labels = object.at("/metadata/labels");
    var fields = selector.properties();
    return fields.stream()
        .allMatch(field -> field.getValue().asText().equals(labels.path(field.getKey()).asText()));
  }
}
