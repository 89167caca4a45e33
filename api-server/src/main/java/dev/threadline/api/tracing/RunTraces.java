package dev.threadline.api.tracing;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.telemetry.GenAi;
import dev.threadline.telemetry.TraceAnnotations;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The hop from the API server to the operator: a Run created while a request is traced carries the
 * request span's trace context in its annotations ({@link TraceAnnotations}), and the request span
 * names the thread ({@code gen_ai.conversation.id}).
 */
public final class RunTraces {
  private RunTraces() {}

  /** Marks a Run about to be created as part of the current request's trace; no-op untraced. */
  public static void continueIn(Run run) {
    Map<String, String> carried = TraceAnnotations.of(Context.current());
    if (carried.isEmpty()) {
      return;
    }
    Span.current().setAttribute(GenAi.CONVERSATION_ID, ResourceIds.toId(run.getSpec().getThread()));
    Map<String, String> annotations = new LinkedHashMap<>();
    if (run.getMetadata().getAnnotations() != null) {
      annotations.putAll(run.getMetadata().getAnnotations());
    }
    annotations.putAll(carried);
    run.getMetadata().setAnnotations(annotations);
  }
}
