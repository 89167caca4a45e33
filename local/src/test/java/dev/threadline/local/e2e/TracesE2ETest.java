package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.local.e2e.OtlpReceiver.ReceivedSpan;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With {@code OTEL_EXPORTER_OTLP_ENDPOINT} set, one computer run is one trace across the process
 * hop: the API server's {@code POST /v1/threads} span, the worker's {@code invoke_agent} span under
 * it (continued from the Run's traceparent annotation), and the loop's {@code chat} and {@code
 * execute_tool} spans under that, all naming the thread as {@code gen_ai.conversation.id}. A
 * scheduled run's trace starts at the {@code fire_schedule} span of the firing that made it.
 */
class TracesE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static OtlpReceiver receiver;
  private static LocalModeFixture fixture;

  @BeforeAll
  static void start() {
    receiver = OtlpReceiver.start();
    fixture =
        LocalModeFixture.start(
            Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                receiver.endpoint(),
                // Export within moments rather than the default five seconds.
                "OTEL_BSP_SCHEDULE_DELAY",
                "100"),
            UnaryOperator.identity());
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
    receiver.close();
  }

  @Test
  void aComputerRunIsOneTraceFromThePostToEachToolCall() {
    String threadId;
    try (SseStream stream =
        fixture.stream(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `echo traced`\"}]}")) {
      List<SseStream.Frame> frames = stream.readAll();
      assertThat(stream.types()).last().isEqualTo("stream.completed");
      threadId = frames.getFirst().data().path("thread").path("id").asText();
    }
    assertThat(threadId).startsWith("thread_");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          ReceivedSpan post = post(threadId);
          List<ReceivedSpan> trace =
              receiver.spans().stream().filter(s -> s.traceId().equals(post.traceId())).toList();
          ReceivedSpan agent = only(trace, "invoke_agent", post.spanId());
          assertThat(agent.service()).isEqualTo("threadline-operator");
          assertThat(agent.name()).startsWith("invoke_agent");
          assertThat(agent.attribute("gen_ai.conversation.id")).isEqualTo(threadId);

          List<ReceivedSpan> chats = children(trace, "chat", agent.spanId());
          assertThat(chats).hasSizeGreaterThanOrEqualTo(2); // the tool call, then the answer
          assertThat(chats)
              .allSatisfy(chat -> {
                assertThat(chat.kind()).isEqualTo("SPAN_KIND_CLIENT");
                assertThat(chat.attribute("gen_ai.provider.name")).isEqualTo("scripted");
                assertThat(chat.attribute("gen_ai.request.model")).isNotBlank();
                assertThat(chat.attribute("gen_ai.usage.input_tokens")).isNotNull();
                assertThat(chat.attribute("gen_ai.usage.output_tokens")).isNotNull();
                assertThat(chat.attribute("gen_ai.conversation.id")).isEqualTo(threadId);
              });
          assertThat(chats)
              .extracting(chat -> chat.attribute("gen_ai.response.finish_reasons"))
              .contains("[tool_calls]", "[stop]");

          ReceivedSpan tool = only(trace, "execute_tool", agent.spanId());
          assertThat(tool.name()).isEqualTo("execute_tool run_command");
          assertThat(tool.attribute("gen_ai.tool.name")).isEqualTo("run_command");
          assertThat(tool.attribute("gen_ai.tool.call.id")).isNotBlank();
          assertThat(tool.attribute("gen_ai.conversation.id")).isEqualTo(threadId);
          // No content: the command the model asked for is not in any span.
          assertThat(trace)
              .allSatisfy(span -> assertThat(span.attributes().toString()).doesNotContain("echo"));
        });
  }

  @Test
  void aScheduledRunsTraceStartsAtTheFiringThatMadeIt() throws IOException {
    HttpResponse<String> created =
        fixture.post(
            ALICE_KEY,
            "/v1/schedules",
            """
            {"name": "Traced", "task": "Hello!", "scheduleType": "recurring", "cronExpression": "0 0 1 1 *"}\
            """);
    assertThat(created.statusCode()).as(created.body()).isBetween(200, 201);
    String id = JSON.readTree(created.body()).path("schedule").path("id").asText();
    HttpResponse<String> triggered =
        fixture.post(ALICE_KEY, "/v1/schedules/" + id + "/trigger", "{}");
    assertThat(triggered.statusCode()).as(triggered.body()).isBetween(200, 201);
    String threadId = JSON.readTree(triggered.body()).path("thread").path("id").asText();

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          List<ReceivedSpan> firings =
              receiver.spans().stream()
                  .filter(s -> s.name().startsWith("fire_schedule "))
                  .filter(s -> threadId.equals(s.attribute("gen_ai.conversation.id")))
                  .toList();
          assertThat(firings).hasSize(1);
          ReceivedSpan firing = firings.getFirst();
          // Made by the API's trigger request, under its request span.
          assertThat(firing.service()).isEqualTo("threadline-api-server");
          assertThat(receiver.spans())
              .anySatisfy(request -> {
                assertThat(request.spanId()).isEqualTo(firing.parentSpanId());
                assertThat(request.kind()).isEqualTo("SPAN_KIND_SERVER");
              });
          List<ReceivedSpan> trace =
              receiver.spans().stream().filter(s -> s.traceId().equals(firing.traceId())).toList();
          ReceivedSpan agent = only(trace, "invoke_agent", firing.spanId());
          assertThat(agent.service()).isEqualTo("threadline-operator");
          assertThat(agent.attribute("gen_ai.conversation.id")).isEqualTo(threadId);
        });
  }

  /** The API server's span of the POST that started the thread. */
  private static ReceivedSpan post(String threadId) {
    List<ReceivedSpan> posts =
        receiver.spans().stream()
            .filter(s -> "POST /v1/threads".equals(s.name()))
            .filter(s -> threadId.equals(s.attribute("gen_ai.conversation.id")))
            .toList();
    assertThat(posts).hasSize(1);
    ReceivedSpan post = posts.getFirst();
    assertThat(post.service()).isEqualTo("threadline-api-server");
    assertThat(post.kind()).isEqualTo("SPAN_KIND_SERVER");
    assertThat(post.attribute("http.response.status_code")).isEqualTo("200");
    return post;
  }

  private static List<ReceivedSpan> children(
      List<ReceivedSpan> trace, String operation, String parentSpanId) {
    return trace.stream()
        .filter(s -> operation.equals(s.attribute("gen_ai.operation.name")))
        .filter(s -> s.parentSpanId().equals(parentSpanId))
        .toList();
  }

  private static ReceivedSpan only(List<ReceivedSpan> trace, String operation, String parent) {
    List<ReceivedSpan> found = children(trace, operation, parent);
    assertThat(found).as(operation + " under " + parent).hasSize(1);
    return found.getFirst();
  }
}
