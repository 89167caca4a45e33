package dev.threadline.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One service's OpenTelemetry: traces exported by OTLP when the standard {@code OTEL_*} variables
 * ask for them, and a no-op otherwise. Off by default: only {@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} or an {@code OTEL_TRACES_EXPORTER} other than {@code
 * none} turn it on, and {@code OTEL_SDK_DISABLED=true} keeps it off. The SDK's own
 * autoconfiguration reads every other {@code OTEL_*} variable (headers, sampler, resource
 * attributes, batch delays); the defaults here are OTLP over HTTP/protobuf, no metrics or logs
 * (Micrometer serves metrics).
 */
public final class Telemetry implements AutoCloseable {
  static final String ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT";
  static final String TRACES_ENDPOINT = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
  static final String TRACES_EXPORTER = "OTEL_TRACES_EXPORTER";
  static final String SDK_DISABLED = "OTEL_SDK_DISABLED";

  private static final String SCOPE = "dev.threadline";

  private final OpenTelemetry openTelemetry;
  private final OpenTelemetrySdk sdk;
  private final Map<String, String> childEnvironment;

  private Telemetry(
      OpenTelemetry openTelemetry, OpenTelemetrySdk sdk, Map<String, String> childEnvironment) {
    this.openTelemetry = openTelemetry;
    this.sdk = sdk;
    this.childEnvironment = childEnvironment;
  }

  /** No traces: every span is a no-op. */
  public static Telemetry off() {
    return new Telemetry(OpenTelemetry.noop(), null, Map.of());
  }

  /**
   * From the {@code OTEL_*} entries of {@code environment} (a process's variables, or a test's),
   * which win over this process's own variables.
   *
   * @param serviceName {@code service.name} unless {@code OTEL_SERVICE_NAME} says otherwise
   * @throws IllegalArgumentException when a variable is malformed, naming it
   */
  public static Telemetry fromEnvironment(String serviceName, Map<String, String> environment) {
    if (!enabled(environment)) {
      return off();
    }
    Map<String, String> defaults =
        Map.of(
            "otel.service.name", serviceName,
            "otel.traces.exporter", "otlp",
            "otel.metrics.exporter", "none",
            "otel.logs.exporter", "none",
            "otel.exporter.otlp.protocol", "http/protobuf",
            "otel.propagators", "tracecontext,baggage");
    Map<String, String> given = properties(environment);
    try {
      OpenTelemetrySdk sdk =
          AutoConfiguredOpenTelemetrySdk.builder()
              .addPropertiesSupplier(() -> defaults)
              .addPropertiesCustomizer(config -> given)
              .disableShutdownHook()
              .build()
              .getOpenTelemetrySdk();
      return new Telemetry(sdk, sdk, forwardable(environment));
    } catch (ConfigurationException e) {
      throw new IllegalArgumentException("OpenTelemetry settings: " + e.getMessage(), e);
    }
  }

  /** Whether these variables ask for traces. */
  static boolean enabled(Map<String, String> environment) {
    if ("true".equalsIgnoreCase(value(environment, SDK_DISABLED))) {
      return false;
    }
    String exporter = value(environment, TRACES_EXPORTER);
    if (!exporter.isEmpty()) {
      return !exporter.equalsIgnoreCase("none");
    }
    return !value(environment, ENDPOINT).isEmpty()
        || !value(environment, TRACES_ENDPOINT).isEmpty();
  }

  /**
   * {@code OTEL_EXPORTER_OTLP_ENDPOINT} → {@code otel.exporter.otlp.endpoint}, as the SDK names
   * them.
   */
  static Map<String, String> properties(Map<String, String> environment) {
    Map<String, String> properties = new LinkedHashMap<>();
    environment.forEach((name, value) -> {
      if (name.startsWith("OTEL_") && value != null && !value.isBlank()) {
        properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value.strip());
      }
    });
    return properties;
  }

  /**
   * The {@code OTEL_*} variables that send another process's spans where these go (the schedule
   * trigger's Pod gets them): not the service name and resource (the process has its own), and
   * nothing that may hold a credential or name a file of this process (headers, certificates,
   * client keys) — a collector that wants those is reached through an agent on the node.
   */
  static Map<String, String> forwardable(Map<String, String> environment) {
    Map<String, String> forwarded = new TreeMap<>();
    environment.forEach((name, value) -> {
      if (name.startsWith("OTEL_")
          && value != null
          && !value.isBlank()
          && !name.equals("OTEL_SERVICE_NAME")
          && !name.equals("OTEL_RESOURCE_ATTRIBUTES")
          && !name.contains("HEADERS")
          && !name.contains("CERTIFICATE")
          && !name.contains("CLIENT_KEY")) {
        forwarded.put(name, value.strip());
      }
    });
    return Collections.unmodifiableMap(forwarded);
  }

  private static String value(Map<String, String> environment, String name) {
    String value = environment.get(name);
    return value == null ? "" : value.strip();
  }

  public OpenTelemetry openTelemetry() {
    return openTelemetry;
  }

  /** Threadline's tracer. */
  public Tracer tracer() {
    return openTelemetry.getTracer(SCOPE);
  }

  /** What a child process needs to export its spans to the same place; empty when off. */
  public Map<String, String> childEnvironment() {
    return childEnvironment;
  }

  /** Whether spans are exported. */
  public boolean enabled() {
    return sdk != null;
  }

  /** Exports what is still buffered, then stops. */
  @Override
  public void close() {
    if (sdk != null) {
      sdk.shutdown().join(10, TimeUnit.SECONDS);
    }
  }
}
