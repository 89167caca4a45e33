package dev.threadline.telemetry;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trace crossing a process hop on a custom resource: the api-server writes the W3C trace context
 * of its request span into the Run's annotations, and the operator and worker continue the trace
 * from there. Only the ids travel (no baggage, nothing a client wrote beyond a tracestate).
 */
public final class TraceAnnotations {
  private static final String PREFIX = "threadline.dev/";
  public static final String TRACEPARENT = PREFIX + "traceparent";
  public static final String TRACESTATE = PREFIX + "tracestate";

  private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

  private static final TextMapSetter<Map<String, String>> SETTER =
      (annotations, header, value) -> annotations.put(PREFIX + header, value);

  private static final TextMapGetter<Map<String, String>> GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> annotations) {
          return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(Map<String, String> annotations, String header) {
          return annotations == null ? null : annotations.get(PREFIX + header);
        }
      };

  private TraceAnnotations() {}

  /** The annotations that carry {@code context}'s span; empty when no span is sampled there. */
  public static Map<String, String> of(Context context) {
    Map<String, String> annotations = new LinkedHashMap<>();
    W3C.inject(context, annotations, SETTER);
    return annotations;
  }

  /**
   * A root context whose remote parent is the span these annotations carry; the root context itself
   * when they carry none (or a malformed one).
   */
  public static Context parentOf(Map<String, String> annotations) {
    return W3C.extract(Context.root(), annotations, GETTER);
  }
}
