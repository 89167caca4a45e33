package dev.threadline.operator.tracing;

import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.models.ModelProvider;
import dev.threadline.telemetry.GenAi;
import dev.threadline.telemetry.TraceAnnotations;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The operator's GenAI spans, one place for all of them: a run is an {@code invoke_agent} span that
 * continues the trace of the request that created it (the Run's {@link TraceAnnotations}), each
 * model call a {@code chat} span and each tool call an {@code execute_tool} span inside it, all
 * with {@code gen_ai.conversation.id} = the thread's id. Callers wrap, they write no span code.
 */
public final class AgentTracing {
  /** The thread id of the run being traced, for the spans made inside its invocation. */
  static final ContextKey<String> CONVERSATION = ContextKey.named("gen_ai.conversation.id");

  static final AttributeKey<String> RUN = AttributeKey.stringKey("threadline.run.name");

  private final Tracer tracer;

  public AgentTracing(Tracer tracer) {
    this.tracer = tracer;
  }

  /** No spans. */
  public static AgentTracing off() {
    return new AgentTracing(OpenTelemetry.noop().getTracer("off"));
  }

  /** Something that may throw, traced as a whole. */
  @FunctionalInterface
  public interface Work<T, E extends Exception> {
    T run() throws E;
  }

  /**
   * The worker's turn at a run's agent loop as one {@code invoke_agent} span.
   *
   * @param failure the {@code error.type} of a result that is a failure; empty for a success
   */
  public <T, E extends Exception> T invokeAgent(
      Run run, Work<T, E> work, Function<T, Optional<String>> failure) throws E {
    String model = run.getStatus() == null ? null : run.getStatus().getModel();
    Context agent = agentContext(run, null, model);
    return within(
        agent,
        work,
        result -> failure.apply(result).ifPresent(type -> failed(Span.fromContext(agent), type)),
        e -> e.getClass().getName());
  }

  /**
   * The direct path's model: each call is the run's {@code invoke_agent} span with its {@code chat}
   * span inside.
   */
  public ModelProvider directAgent(Run run, ModelProvider model) {
    return new InvokedAgentModel(run, chats(model), this);
  }

  /** A model whose calls are {@code chat} spans under the current span. */
  public ModelProvider chats(ModelProvider model) {
    return new TracedModelProvider(model, tracer);
  }

  /**
   * One tool call as an {@code execute_tool} span.
   *
   * @param callId the model's id of the call
   * @param succeeded whether a result says the tool did its job
   */
  public <T> T executeTool(String name, String callId, Supplier<T> call, Predicate<T> succeeded) {
    Span span =
        tracer
            .spanBuilder(GenAi.spanName(GenAi.EXECUTE_TOOL, name))
            .setSpanKind(SpanKind.INTERNAL)
            .setAttribute(GenAi.OPERATION_NAME, GenAi.EXECUTE_TOOL)
            .setAttribute(GenAi.TOOL_NAME, name)
            .setAttribute(GenAi.TOOL_CALL_ID, callId)
            .setAttribute(GenAi.TOOL_TYPE, "function")
            .setAttribute(GenAi.CONVERSATION_ID, Context.current().get(CONVERSATION))
            .startSpan();
    return within(
        Context.current().with(span),
        call::get,
        result -> {
          if (!succeeded.test(result)) {
            failed(span, "tool_error");
          }
        },
        e -> e.getClass().getName());
  }

  /** A run's wait for a person before call {@code callId} of {@code tool}, as its own span. */
  public <T, E extends Exception> T waitForInput(
      String tool, String callId, String kind, Work<T, E> wait) throws E {
    Span span =
        tracer
            .spanBuilder("wait_for_input " + tool)
            .setSpanKind(SpanKind.INTERNAL)
            .setAttribute(GenAi.TOOL_NAME, tool)
            .setAttribute(GenAi.TOOL_CALL_ID, callId)
            .setAttribute("threadline.wait.kind", kind)
            .setAttribute(GenAi.CONVERSATION_ID, Context.current().get(CONVERSATION))
            .startSpan();
    return within(Context.current().with(span), wait, result -> {}, e -> e.getClass().getName());
  }

  /**
   * Runs {@code work} with {@code context} and its span current. {@code onResult} looks at what it
   * gave (and may mark the span failed); an exception marks the span failed with the type {@code
   * errorType} names, and goes on. The span ends either way.
   */
  static <T, E extends Exception> T within(
      Context context, Work<T, E> work, Consumer<T> onResult, Function<Exception, String> errorType)
      throws E {
    Span span = Span.fromContext(context);
    try (Scope ignored = context.makeCurrent()) {
      T result = work.run();
      onResult.accept(result);
      return result;
    } catch (Exception e) {
      failed(span, errorType.apply(e));
      throw e;
    } finally {
      span.end();
    }
  }

  /** A started {@code invoke_agent} span for the run, current in the returned context. */
  Context agentContext(Run run, String provider, String model) {
    String conversation = conversationId(run);
    Context parent =
        TraceAnnotations.parentOf(run.getMetadata().getAnnotations())
            .with(CONVERSATION, conversation);
    var builder =
        tracer
            .spanBuilder(GenAi.spanName(GenAi.INVOKE_AGENT, run.getSpec().getAgent()))
            .setParent(parent)
            .setSpanKind(SpanKind.INTERNAL)
            .setAttribute(GenAi.OPERATION_NAME, GenAi.INVOKE_AGENT)
            .setAttribute(GenAi.CONVERSATION_ID, conversation)
            .setAttribute(RUN, run.getMetadata().getName());
    if (run.getSpec().getAgent() != null) {
      builder.setAttribute(GenAi.AGENT_NAME, run.getSpec().getAgent());
    }
    if (provider != null) {
      builder.setAttribute(GenAi.PROVIDER_NAME, provider);
    }
    if (model != null) {
      builder.setAttribute(GenAi.REQUEST_MODEL, model);
    }
    return parent.with(builder.startSpan());
  }

  static void failed(Span span, String errorType) {
    span.setAttribute(GenAi.ERROR_TYPE, errorType);
    span.setStatus(StatusCode.ERROR);
  }

  /** The thread's REST id ({@code thread_…}), as clients know it. */
  static String conversationId(Run run) {
    return ResourceIds.toIdOrName(run.getSpec().getThread());
  }
}
