package dev.threadline.models.anthropic;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Anthropic client streams against a stand-in that writes Messages SSE events with delays. */
class AnthropicStreamingTest {
  private static final Duration BETWEEN = Duration.ofMillis(150);

  private FakeModelServer server;
  private AnthropicModelProvider provider;

  @BeforeEach
  void start() throws Exception {
    server = new FakeModelServer();
    provider =
        new AnthropicModelProvider(
            new ModelSettings(
                "anthropic",
                "claude-sonnet-4-5",
                server.baseUrl(),
                "sk-ant-test",
                Duration.ofSeconds(10)));
  }

  @AfterEach
  void stop() {
    provider.close();
    server.close();
  }

  @Test
  void handsOverTextWhileItIsWrittenAndReadsUsageFromTheFinalDelta() {
    server.answerStream(
        Duration.ofMillis(50),
        BETWEEN,
        List.of(
            event(
                "message_start",
                "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                    + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],"
                    + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":15,"
                    + "\"output_tokens\":1,\"cache_read_input_tokens\":5}}}"),
            event(
                "content_block_start",
                "{\"type\":\"content_block_start\",\"index\":0,"
                    + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"),
            textDelta("Bonjour"),
            textDelta(", le"),
            textDelta(" monde."),
            event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"),
            event(
                "message_delta",
                "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                    + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":6}}"),
            event("message_stop", "{\"type\":\"message_stop\"}")));
    StreamedReply streamed =
        StreamedReply.of(
            provider,
            ModelRequest.of("claude-sonnet-4-5", null, List.of(ChatMessage.user("Greet me"))));
    ModelReply reply = streamed.reply();

    streamed.assertHandedOverWhileWritten(BETWEEN.multipliedBy(2), "Bonjour", ", le", " monde.");
    assertThat(reply.stopReason()).isEqualTo(StopReason.END_TURN);
    assertThat(reply.usage().outputTokens()).isEqualTo(6);
    assertThat(reply.usage()).isEqualTo(new Usage(20, 6, 5));
    assertThat(server.onlyRequest().body().path("stream").asBoolean()).isTrue();
  }

  @Test
  void aStreamThatStopsBeforeItFinishesIsAnInvalidReply() {
    server.answerStream(
        Duration.ZERO, Duration.ZERO, List.of(messageStart(), textBlock(), textDelta("Bon")));

    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
    assertThat(failure.getMessage()).contains("ended before the answer was complete");
  }

  @Test
  void anEventTheStreamCannotHoldIsAnInvalidReplyInWords() {
    // A text delta for a content block that never started.
    server.answerStream(
        Duration.ZERO,
        Duration.ZERO,
        List.of(
            messageStart(),
            textDelta("Bon"),
            event("message_stop", "{\"type\":\"message_stop\"}")));

    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
    assertThat(failure.getMessage()).contains("Content block not started");
  }

  @Test
  void aStreamThatHangsIsATimeoutWithinTheModelTimeout() {
    provider.close();
    provider =
        new AnthropicModelProvider(
            new ModelSettings(
                "anthropic",
                "claude-sonnet-4-5",
                server.baseUrl(),
                "sk-ant-test",
                Duration.ofMillis(500)));
    server.answerStream(
        Duration.ZERO, Duration.ofSeconds(30), List.of(messageStart(), textBlock()));

    long start = System.nanoTime();
    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.TIMEOUT);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @ParameterizedTest
  @CsvSource({"500, UNAVAILABLE", "429, RATE_LIMITED"})
  void anErrorStatusInsteadOfAStreamIsAFailureWithTheProvidersWords(
      int status, ModelErrorCode code) {
    server.answer(
        status,
        "{\"type\":\"error\",\"error\":{\"type\":\"api_error\","
            + "\"message\":\"the provider says no\"}}");

    ModelException failure = failedStream();

    assertThat(failure.code()).isEqualTo(code);
    assertThat(failure.getMessage()).contains("the provider says no");
  }

  private ModelException failedStream() {
    return catchThrowableOfType(
        ModelException.class,
        () ->
            provider.stream(
                ModelRequest.of("claude-sonnet-4-5", null, List.of(ChatMessage.user("hi"))),
                delta -> {}));
  }

  private static String messageStart() {
    return event(
        "message_start",
        "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
            + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],"
            + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":15,"
            + "\"output_tokens\":1}}}");
  }

  private static String textBlock() {
    return event(
        "content_block_start",
        "{\"type\":\"content_block_start\",\"index\":0,"
            + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
  }

  private static String textDelta(String text) {
    return event(
        "content_block_delta",
        "{\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\""
            + text
            + "\"}}");
  }

  private static String event(String type, String data) {
    return "event: " + type + "\ndata: " + data;
  }
}
