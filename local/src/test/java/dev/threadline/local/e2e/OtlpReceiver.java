package dev.threadline.local.e2e;

import com.sun.net.httpserver.HttpExchange;
import dev.threadline.operator.support.LoopbackServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OTLP/HTTP trace receiver on loopback: accepts {@code POST /v1/traces} in protobuf, as the
 * OpenTelemetry SDK's exporter sends it, and keeps every span.
 */
final class OtlpReceiver implements AutoCloseable {
  /** One received span, with ids in hex as W3C writes them. */
  record ReceivedSpan(
      String service,
      String traceId,
      String spanId,
      String parentSpanId,
      String name,
      String kind,
      Map<String, String> attributes) {
    String attribute(String key) {
      return attributes.get(key);
    }
  }

  private static final HexFormat HEX = HexFormat.of();

  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final LoopbackServer server;

  private OtlpReceiver() {
    server = LoopbackServer.start("/v1/traces", this::receive);
  }

  static OtlpReceiver start() {
    return new OtlpReceiver();
  }

  private void receive(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      accept(ExportTraceServiceRequest.parseFrom(in.readAllBytes()));
    } catch (IOException | RuntimeException unreadable) {
      exchange.sendResponseHeaders(400, -1);
      return;
    }
    LoopbackServer.respond(
        exchange,
        200,
        "application/x-protobuf",
        ExportTraceServiceResponse.getDefaultInstance().toByteArray());
  }

  /** The base URL to give as {@code OTEL_EXPORTER_OTLP_ENDPOINT}. */
  String endpoint() {
    return server.baseUrl();
  }

  List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  private void accept(ExportTraceServiceRequest request) {
    for (ResourceSpans resource : request.getResourceSpansList()) {
      String service = values(resource.getResource().getAttributesList()).get("service.name");
      for (ScopeSpans scope : resource.getScopeSpansList()) {
        for (var span : scope.getSpansList()) {
          spans.add(
              new ReceivedSpan(
                  service,
                  HEX.formatHex(span.getTraceId().toByteArray()),
                  HEX.formatHex(span.getSpanId().toByteArray()),
                  HEX.formatHex(span.getParentSpanId().toByteArray()),
                  span.getName(),
                  span.getKind().name(),
                  values(span.getAttributesList())));
        }
      }
    }
  }

  private static Map<String, String> values(List<KeyValue> attributes) {
    Map<String, String> values = new LinkedHashMap<>();
    attributes.forEach(a -> values.put(a.getKey(), text(a.getValue())));
    return values;
  }

  private static String text(AnyValue value) {
    return switch (value.getValueCase()) {
      case STRING_VALUE -> value.getStringValue();
      case INT_VALUE -> Long.toString(value.getIntValue());
      case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
      case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
      case ARRAY_VALUE ->
          value.getArrayValue().getValuesList().stream()
              .map(OtlpReceiver::text)
              .toList()
              .toString();
      default -> value.toString();
    };
  }

  @Override
  public void close() {
    server.close();
  }
}
