package dev.threadline.helm;

import static dev.threadline.helm.RenderedChart.container;
import static dev.threadline.helm.RenderedChart.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Traces: off by default; one endpoint, headers Secret and OTEL_* set for both services. */
class ChartTracingTest {
  private static final List<String> DEPLOYMENTS =
      List.of("threadline-operator", "threadline-api-server");

  @Test
  void noTracesByDefault() {
    RenderedChart defaults = RenderedChart.withDefaults();
    for (String deployment : DEPLOYMENTS) {
      assertThat(env(container(defaults.get("Deployment", deployment))).keySet())
          .noneMatch(name -> name.startsWith("OTEL_"));
    }
  }

  @Test
  void bothServicesExportToTheConfiguredEndpoint() {
    RenderedChart traced =
        RenderedChart.render(t ->
            t.set("tracing.otlpEndpoint", "http://collector.obs:4318")
                .set("tracing.headersSecret", "otlp-auth")
                .set("tracing.env.OTEL_TRACES_SAMPLER", "parentbased_traceidratio"));
    for (String deployment : DEPLOYMENTS) {
      var env = env(container(traced.get("Deployment", deployment)));
      assertThat(env.get("OTEL_EXPORTER_OTLP_ENDPOINT").path("value").asText())
          .isEqualTo("http://collector.obs:4318");
      assertThat(env.get("OTEL_TRACES_SAMPLER").path("value").asText())
          .isEqualTo("parentbased_traceidratio");
      JsonNode headers = env.get("OTEL_EXPORTER_OTLP_HEADERS");
      assertThat(headers.has("value")).as("headers come from the Secret, not the spec").isFalse();
      assertThat(headers.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("otlp-auth");
      assertThat(headers.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("headers");
    }
  }
}
