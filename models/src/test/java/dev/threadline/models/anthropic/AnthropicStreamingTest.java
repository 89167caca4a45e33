package dev.threadline.models.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.FakeModelServer;
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
