package dev.threadline.operator.tracing;

import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.TextDeltas;
import dev.threadline.telemetry.GenAi;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.function.Supplier;

/** A model whose every call is a {@code chat} span, a child of the current span. */
final class TracedModelProvider implements ModelProvider {
  private final ModelProvider model;
  private final Tracer tracer;

  TracedModelProvider(ModelProvider model, Tracer tracer) {
    this.model = model;
    this.tracer = tracer;
  }

  @Override
  public String name() {
    return model.name();
  }

  @Override
  public ModelReply complete(ModelRequest request) {
    return chat(request, () -> model.complete(request));
  }

  @Override
  public ModelReply stream(ModelRequest request, TextDeltas deltas) {
    return chat(request, () -> model.stream(request, deltas));
  }

  @Override
  public void close() {
    model.close();
  }

  private ModelReply chat(ModelRequest request, Supplier<ModelReply> call) {
    Span span =
        tracer
            .spanBuilder(GenAi.spanName(GenAi.CHAT, request.model()))
            .setSpanKind(SpanKind.CLIENT)
            .setAllAttributes(
                ChatAttributes.request(
                    model.name(), request, Context.current().get(AgentTracing.CONVERSATION)))
            .startSpan();
    return AgentTracing.within(
        Context.current().with(span),
        call::get,
        reply -> span.setAllAttributes(ChatAttributes.reply(reply)),
        ChatAttributes::errorType);
  }
}
