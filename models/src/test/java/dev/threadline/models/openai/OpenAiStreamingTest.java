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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  @Test
  void usageInTheChunkThatFinishesIsAnInvalidReplyInWords() {
    // Some compatible servers put the usage beside finish_reason; the SDK's accumulator refuses it.
    server.answerStream(
        Duration.ZERO,
        Duration.ZERO,
        List.of(
            chunk("{\"role\":\"assistant\",\"content\":\"Hi\"}", null),
            chunk("{}", "\"stop\"")
                .replace(
                    "}]}",
                    "}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,"
                        + "\"total_tokens\":4}}"),
            "data: [DONE]"));

    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
    assertThat(failure.getMessage()).contains("could not be read");
  }

  @Test
  void aStreamThatStopsBeforeItFinishesIsAnInvalidReply() {
    server.answerStream(
        Duration.ZERO,
        Duration.ZERO,
        List.of(
            chunk("{\"role\":\"assistant\",\"content\":\"The capital\"}", null),
            chunk("{\"content\":\" is\"}", null)));

    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
    assertThat(failure.getMessage()).contains("ended before the answer was complete");
  }

  @Test
  void aStreamThatHangsIsATimeoutWithinTheModelTimeout() {
    provider.close();
    provider =
        new OpenAiModelProvider(
            new ModelSettings(
                "openai",
                "gpt-4.1-mini",
                server.baseUrl() + "/v1",
                "sk-test",
                Duration.ofMillis(500)));
    server.answerStream(
        Duration.ZERO,
        Duration.ofSeconds(30),
        List.of(chunk("{\"role\":\"assistant\",\"content\":\"The\"}", null), "data: [DONE]"));

    long start = System.nanoTime();
    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.TIMEOUT);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @ParameterizedTest
  @CsvSource({"500, UNAVAILABLE", "429, RATE_LIMITED"})
  void anErrorStatusInsteadOfAStreamIsAFailureWithTheProvidersWords(
      int status, ModelErrorCode code) {
    server.answer(status, "{\"error\":{\"message\":\"the provider says no\"}}");

    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(code);
    assertThat(failure.getMessage()).contains("the provider says no");
  }

  private ModelException failedStream() {
    return catchThrowableOfType(
        ModelException.class,
        () ->
            provider.stream(
                ModelRequest.of("gpt-4.1-mini", null, List.of(ChatMessage.user("hi"))),
                delta -> {}));
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
