package dev.threadline.operator.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import dev.threadline.telemetry.GenAi;
import dev.threadline.telemetry.TraceAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AgentTracingTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String POST_SPAN = "00f067aa0ba902b7";

  private final InMemorySpanExporter exported = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
  private final AgentTracing tracing = new AgentTracing(provider.get("test"));

  @AfterEach
  void close() {
    provider.close();
  }

  @Test
  void aDirectAnswerIsAnAgentInvocationUnderThePostWithItsChatInside() {
    List<String> deltas = new ArrayList<>();
    ModelProvider model =
        tracing.directAgent(
            run(),
            fake(new ModelReply("Hi!", List.of(), new Usage(12, 3, 0), StopReason.END_TURN)));

    model.stream(request(), deltas::add);

    SpanData agent = span(GenAi.INVOKE_AGENT);
    SpanData chat = span(GenAi.CHAT);
    assertThat(agent.getName()).isEqualTo("invoke_agent helper");
    assertThat(agent.getTraceId()).isEqualTo(TRACE);
    assertThat(agent.getParentSpanId()).isEqualTo(POST_SPAN);
    assertThat(agent.getKind()).isEqualTo(SpanKind.INTERNAL);
    assertThat(agent.getAttributes().get(GenAi.CONVERSATION_ID)).isEqualTo("thread_abc123");
    assertThat(agent.getAttributes().get(GenAi.AGENT_NAME)).isEqualTo("helper");
    assertThat(agent.getAttributes().get(GenAi.PROVIDER_NAME)).isEqualTo("fake");
    assertThat(chat.getParentSpanId()).isEqualTo(agent.getSpanId());
    assertThat(chat.getName()).isEqualTo("chat small-model");
    assertThat(chat.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(deltas).containsExactly("Hi!");
  }

  @Test
  void aChatSpanCarriesTheRequestUsageAndFinishReasonButNoContent() {
    ModelProvider model =
        tracing.directAgent(
            run(),
            fake(
                new ModelReply(
                    "secret reply",
                    List.of(
                        ToolCall.of(
                            "call_1", "run_command", Map.of("command", "cat /secret-dir/x"))),
                    new Usage(120, 45, 20),
                    StopReason.TOOL_USE)));

    model.complete(request());

    var attributes = span(GenAi.CHAT).getAttributes();
    assertThat(attributes.get(GenAi.OPERATION_NAME)).isEqualTo("chat");
    assertThat(attributes.get(GenAi.PROVIDER_NAME)).isEqualTo("fake");
    assertThat(attributes.get(GenAi.REQUEST_MODEL)).isEqualTo("small-model");
    assertThat(attributes.get(GenAi.REQUEST_MAX_TOKENS)).isEqualTo(256L);
    assertThat(attributes.get(GenAi.USAGE_INPUT_TOKENS)).isEqualTo(120L);
    assertThat(attributes.get(GenAi.USAGE_OUTPUT_TOKENS)).isEqualTo(45L);
    assertThat(attributes.get(GenAi.RESPONSE_FINISH_REASONS)).containsExactly("tool_calls");
    assertThat(attributes.get(GenAi.CONVERSATION_ID)).isEqualTo("thread_abc123");
    assertThat(attributes.asMap().values().toString())
        .doesNotContain("secret reply", "the task", "be brief", "/secret-dir");
  }

  @Test
  void finishReasonsFollowTheConventions() {
    assertThat(ChatAttributes.finishReason(StopReason.END_TURN)).isEqualTo("stop");
    assertThat(ChatAttributes.finishReason(StopReason.TOOL_USE)).isEqualTo("tool_calls");
    assertThat(ChatAttributes.finishReason(StopReason.MAX_TOKENS)).isEqualTo("length");
    assertThat(ChatAttributes.finishReason(StopReason.OTHER)).isEqualTo("other");
  }

  @Test
  void aFailedModelCallIsAnErrorWithItsCodeNotItsMessage() {
    ModelProvider failing =
        tracing.directAgent(
            run(),
            new FakeModel(null) {
              @Override
              public ModelReply complete(ModelRequest request) {
                throw new ModelException("fake", ModelErrorCode.RATE_LIMITED, "key sk-123 limited");
              }
            });

    assertThatThrownBy(() -> failing.complete(request())).isInstanceOf(ModelException.class);

    for (String operation : List.of(GenAi.CHAT, GenAi.INVOKE_AGENT)) {
      SpanData span = span(operation);
      assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(span.getAttributes().get(GenAi.ERROR_TYPE)).isEqualTo("rate_limited");
      assertThat(span.getStatus().getDescription()).doesNotContain("sk-123");
      assertThat(span.getEvents()).isEmpty();
    }
  }

  @Test
  void theWorkersLoopNestsChatsAndToolCallsUnderOneInvocation() {
    ModelProvider chats =
        tracing.chats(fake(new ModelReply("", List.of(), new Usage(1, 1, 0), StopReason.TOOL_USE)));

    Optional<String> ended =
        tracing.invokeAgent(
            run(),
            () -> {
              chats.complete(request());
              tracing.executeTool("run_command", "call_7", () -> "ok", "ok"::equals);
              tracing.executeTool("read_file", "call_8", () -> "denied", "ok"::equals);
              return Optional.of("execution_failed");
            },
            result -> result);

    assertThat(ended).contains("execution_failed");
    SpanData agent = span(GenAi.INVOKE_AGENT);
    assertThat(agent.getParentSpanId()).isEqualTo(POST_SPAN);
    assertThat(agent.getAttributes().get(GenAi.REQUEST_MODEL)).isEqualTo("small-model");
    assertThat(agent.getAttributes().get(GenAi.ERROR_TYPE)).isEqualTo("execution_failed");
    List<SpanData> tools =
        exported.getFinishedSpanItems().stream()
            .filter(s -> GenAi.EXECUTE_TOOL.equals(s.getAttributes().get(GenAi.OPERATION_NAME)))
            .toList();
    assertThat(tools)
        .extracting(SpanData::getName)
        .containsExactly("execute_tool run_command", "execute_tool read_file");
    assertThat(tools)
        .allSatisfy(tool -> {
          assertThat(tool.getParentSpanId()).isEqualTo(agent.getSpanId());
          assertThat(tool.getAttributes().get(GenAi.CONVERSATION_ID)).isEqualTo("thread_abc123");
        });
    assertThat(tools.get(0).getAttributes().get(GenAi.TOOL_CALL_ID)).isEqualTo("call_7");
    assertThat(tools.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    assertThat(tools.get(1).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span(GenAi.CHAT).getParentSpanId()).isEqualTo(agent.getSpanId());
  }

  @Test
  void aRunWithoutATraceStartsItsOwn() {
    Run run = run();
    run.getMetadata().setAnnotations(null);

    tracing
        .directAgent(run, fake(new ModelReply("x", List.of(), Usage.ZERO, StopReason.END_TURN)))
        .complete(request());

    SpanData agent = span(GenAi.INVOKE_AGENT);
    assertThat(agent.getParentSpanContext().isValid()).isFalse();
    assertThat(span(GenAi.CHAT).getTraceId()).isEqualTo(agent.getTraceId());
  }

  private SpanData span(String operation) {
    return exported.getFinishedSpanItems().stream()
        .filter(s -> operation.equals(s.getAttributes().get(GenAi.OPERATION_NAME)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + operation + " span"));
  }

  private static ModelRequest request() {
    return new ModelRequest(
        "small-model", "be brief", List.of(ChatMessage.user("the task")), List.of(), 256);
  }

  private static Run run() {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName("run-thread-abc123-1")
            .withNamespace("user-1")
            .withAnnotations(
                Map.of(TraceAnnotations.TRACEPARENT, "00-" + TRACE + "-" + POST_SPAN + "-01"))
            .build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc123");
    spec.setAgent("helper");
    run.setSpec(spec);
    RunStatus status = new RunStatus();
    status.setModel("small-model");
    run.setStatus(status);
    return run;
  }

  private static FakeModel fake(ModelReply reply) {
    return new FakeModel(reply);
  }

  /** A model that always gives the same reply. */
  private static class FakeModel implements ModelProvider {
    private final ModelReply reply;

    FakeModel(ModelReply reply) {
      this.reply = reply;
    }

    @Override
    public String name() {
      return "fake";
    }

    @Override
    public ModelReply complete(ModelRequest request) {
      return reply;
    }
  }
}
