package dev.threadline.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TelemetryTest {

  @Test
  void offWithoutAnEndpointOrExporter() {
    assertThat(Telemetry.enabled(Map.of())).isFalse();
    assertThat(Telemetry.enabled(Map.of("OTEL_SERVICE_NAME", "x"))).isFalse();
    try (Telemetry telemetry = Telemetry.fromEnvironment("svc", Map.of())) {
      assertThat(telemetry.enabled()).isFalse();
      assertThat(telemetry.tracer().spanBuilder("s").startSpan().getSpanContext().isValid())
          .isFalse();
    }
  }

  @Test
  void onWithAnEndpointUnlessDisabledOrExporterNone() {
    assertThat(Telemetry.enabled(Map.of(Telemetry.ENDPOINT, "http://127.0.0.1:4318"))).isTrue();
    assertThat(Telemetry.enabled(Map.of(Telemetry.TRACES_ENDPOINT, "http://h/v1/traces"))).isTrue();
    assertThat(Telemetry.enabled(Map.of(Telemetry.TRACES_EXPORTER, "console"))).isTrue();
    assertThat(
            Telemetry.enabled(
                Map.of(
                    Telemetry.ENDPOINT,
                    "http://127.0.0.1:4318",
                    Telemetry.TRACES_EXPORTER,
                    "none")))
        .isFalse();
    assertThat(
            Telemetry.enabled(
                Map.of(
                    Telemetry.ENDPOINT, "http://127.0.0.1:4318", Telemetry.SDK_DISABLED, "true")))
        .isFalse();
  }

  @Test
  void variablesBecomeTheSdksPropertiesAndOthersAreIgnored() {
    assertThat(
            Telemetry.properties(
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", " http://127.0.0.1:4318 ",
                    "OTEL_BSP_SCHEDULE_DELAY", "100",
                    "OTEL_EMPTY", " ",
                    "THREADLINE_MODEL_API_KEY", "sk-secret")))
        .containsOnly(
            Map.entry("otel.exporter.otlp.endpoint", "http://127.0.0.1:4318"),
            Map.entry("otel.bsp.schedule.delay", "100"));
  }

  @Test
  void onMakesRecordingSpans() {
    try (Telemetry telemetry =
        Telemetry.fromEnvironment("svc", Map.of(Telemetry.ENDPOINT, "http://127.0.0.1:1"))) {
      assertThat(telemetry.enabled()).isTrue();
      // Not ended, so not exported: nothing listens on that port.
      assertThat(telemetry.tracer().spanBuilder("s").startSpan().isRecording()).isTrue();
    }
  }

  @Test
  void aMalformedSettingIsNamed() {
    assertThatThrownBy(() ->
            Telemetry.fromEnvironment(
                "svc",
                Map.of(
                    Telemetry.ENDPOINT,
                    "http://127.0.0.1:1",
                    "OTEL_EXPORTER_OTLP_PROTOCOL",
                    "carrier-pigeon")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carrier-pigeon");
  }

  @Test
  void aChildProcessGetsWhereToExportButNoCredentialNameOrFile() {
    assertThat(
            Telemetry.forwardable(
                Map.of(
                    Telemetry.ENDPOINT,
                    "http://collector:4318",
                    "OTEL_TRACES_SAMPLER",
                    "parentbased_always_on",
                    "OTEL_EXPORTER_OTLP_HEADERS",
                    "authorization=Bearer secret",
                    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
                    "x-key=secret",
                    "OTEL_EXPORTER_OTLP_CERTIFICATE",
                    "/etc/ca.pem",
                    "OTEL_EXPORTER_OTLP_CLIENT_KEY",
                    "/etc/key.pem",
                    "OTEL_SERVICE_NAME",
                    "threadline-operator",
                    "OTEL_RESOURCE_ATTRIBUTES",
                    "service.name=threadline-operator",
                    "PATH",
                    "/usr/bin")))
        .containsOnly(
            Map.entry(Telemetry.ENDPOINT, "http://collector:4318"),
            Map.entry("OTEL_TRACES_SAMPLER", "parentbased_always_on"));
  }

  @Test
  void onlyTracesThatAreOnArePassedOn() {
    try (Telemetry telemetry =
        Telemetry.fromEnvironment("svc", Map.of(Telemetry.ENDPOINT, "http://127.0.0.1:1"))) {
      assertThat(telemetry.childEnvironment())
          .containsExactly(Map.entry(Telemetry.ENDPOINT, "http://127.0.0.1:1"));
    }
    assertThat(Telemetry.off().childEnvironment()).isEmpty();
    assertThat(
            Telemetry.fromEnvironment("svc", Map.of("OTEL_TRACES_SAMPLER", "always_on"))
                .childEnvironment())
        .isEmpty();
  }
}
