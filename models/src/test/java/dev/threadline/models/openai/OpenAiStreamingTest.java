package dev.threadline.models.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.FakeModelServer;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.StopReason;
import dev.threadline.models.StreamedReply;
import dev.threadline.models.Usage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The OpenAI-compatible client streams against a stand-in that writes SSE chunks with delays. */
class OpenAiStreamingTest {
  private static final Duration BETWEEN = Duration.ofMillis(150);

  private FakeModelServer server;
  private OpenAiModelProvider provider;

  @BeforeEach
  void start() throws Exception {
    server = new FakeModelServer();
    provider =
        new OpenAiModelProvider(
            new ModelSettings(
                "openai",
                "gpt-4.1-mini",
                server.baseUrl() + "/v1",
                "sk-test",
                Duration.ofSeconds(10)));
  }

  @AfterEach
  void stop() {
    provider.close();
    server.close();
  }

  @Test
  void handsOverTextWhileItIsWrittenAndReadsUsageFromTheLastChunk() {
    server.answerStream(
        Duration.ofMillis(50),
        BETWEEN,
        List.of(
            chunk("{\"role\":\"assistant\",\"content\":\"\"}", null),
            chunk("{\"content\":\"The capital\"}", null),
            chunk("{\"content\":\" is\"}", null),
            chunk("{\"content\":\" Paris.\"}", null),
            chunk("{}", "\"stop\""),
            "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
                + "\"model\":\"gpt-4.1-mini\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
                + "\"completion_tokens\":4,\"total_tokens\":16,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":2}}}",
            "data: [DONE]"));
    StreamedReply streamed =
        StreamedReply.of(
            provider,
            ModelRequest.of("gpt-4.1-mini", null, List.of(ChatMessage.user("Capital of France?"))));
    ModelReply reply = streamed.reply();

    streamed.assertHandedOverWhileWritten(BETWEEN.multipliedBy(2), "The capital", " is", " Paris.");
    assertThat(reply.usage()).isEqualTo(new Usage(12, 4, 2));
    assertThat(reply.stopReason()).isEqualTo(StopReason.END_TURN);
    FakeModelServer.Received request = server.onlyRequest();
    assertThat(request.body().path("stream").asBoolean()).isTrue();
    assertThat(request.body().path("stream_options").path("include_usage").asBoolean()).isTrue();
  }

  @Test
  void aStreamedToolCallIsAccumulated() {
    server.answerStream(
        Duration.ZERO,
        Duration.ofMillis(20),
        List.of(
            chunk(
                "{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                    + "\"type\":\"function\",\"function\":{\"name\":\"run_command\","
                    + "\"arguments\":\"{\\\"comm\"}}]}",
                null),
            chunk(
                "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"and\\\":\\\"ls\\\"}\"}}]}",
                null),
            chunk("{}", "\"tool_calls\""),
            "data: [DONE]"));
    List<String> deltas = new CopyOnWriteArrayList<>();

    ModelReply reply =
        provider.stream(
            ModelRequest.of("gpt-4.1-mini", null, List.of(ChatMessage.user("list files"))),
            deltas::add);

    assertThat(deltas).isEmpty();
    assertThat(reply.stopReason()).isEqualTo(StopReason.TOOL_USE);
    assertThat(reply.toolCalls()).hasSize(1);
    assertThat(reply.toolCalls().get(0).name()).isEqualTo("run_command");
    assertThat(reply.toolCalls().get(0).arguments()).containsEntry("command", "ls");
  }

  @Test
  void aStreamedToolCallWithoutAnIdIsAnInvalidReplyAfterTheTextWasHandedOver() {
    server.answerStream(
        Duration.ZERO,
        Duration.ofMillis(20),
        List.of(
            chunk("{\"role\":\"assistant\",\"content\":\"Let me look.\"}", null),
            chunk(
                "{\"tool_calls\":[{\"index\":0,\"id\":\"\",\"type\":\"function\","
                    + "\"function\":{\"name\":\"run_command\",\"arguments\":\"{}\"}}]}",
                null),
            chunk("{}", "\"tool_calls\""),
            "data: [DONE]"));
    List<String> deltas = new CopyOnWriteArrayList<>();

    ModelException failure =
        catchThrowableOfType(
            ModelException.class,
            () ->
                provider.stream(
                    ModelRequest.of("gpt-4.1-mini", null, List.of(ChatMessage.user("look"))),
                    deltas::add));

    assertThat(deltas).containsExactly("Let me look.");
    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
  }

  private static String chunk(String delta, String finishReason) {
    return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
        + "\"model\":\"gpt-4.1-mini\",\"choices\":[{\"index\":0,\"delta\":"
        + delta
        + ",\"finish_reason\":"
        + (finishReason == null ? "null" : finishReason)
        + "}]}";
  }
}
