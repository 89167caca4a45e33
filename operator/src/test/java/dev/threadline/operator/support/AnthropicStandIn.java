package dev.threadline.operator.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.threadline.models.ModelSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * An Anthropic Messages endpoint on 127.0.0.1 for tests: answers queued texts as the Messages SSE
 * stream ({@code message_start}, one text block of {@code text_delta}s, {@code message_delta} with
 * the usage, {@code message_stop}), with a delay before the first token and between tokens. It
 * records every request, so a test can count model calls.
 */
public final class AnthropicStandIn extends ModelStandIn<List<String>> {

  public AnthropicStandIn(Duration firstToken, Duration perToken) {
    super(
        ModelSettings.ANTHROPIC,
        "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"no reply\"}}",
        firstToken,
        perToken);
  }

  /** The base URL to configure the Anthropic client with. */
  @Override
  public String baseUrl() {
    return address();
  }

  /** Queues a text answer written as these tokens. */
  public AnthropicStandIn answerText(String... tokens) {
    queue(List.of(tokens));
    return this;
  }

  @Override
  protected String errorBody(String message) {
    ObjectNode body = JSON.createObjectNode().put("type", "error");
    body.putObject("error").put("type", "api_error").put("message", message);
    return body.toString();
  }

  @Override
  protected void answer(HttpExchange exchange, JsonNode body, List<String> tokens)
      throws IOException, InterruptedException {
    LoopbackServer.EventStream events = LoopbackServer.eventStream(exchange);
    ObjectNode start = JSON.createObjectNode().put("type", "message_start");
    ObjectNode message =
        start
            .putObject("message")
            .put("id", "msg_standin")
            .put("type", "message")
            .put("role", "assistant")
            .put("model", "stand-in");
    message.putArray("content");
    message.putNull("stop_reason");
    message.putNull("stop_sequence");
    message.putObject("usage").put("input_tokens", 20).put("output_tokens", 1);
    send(events, start);
    ObjectNode blockStart =
        JSON.createObjectNode().put("type", "content_block_start").put("index", 0);
    blockStart.putObject("content_block").put("type", "text").put("text", "");
    send(events, blockStart);
    paced(
        tokens,
        token -> {
          ObjectNode delta =
              JSON.createObjectNode().put("type", "content_block_delta").put("index", 0);
          delta.putObject("delta").put("type", "text_delta").put("text", token);
          send(events, delta);
        });
    send(events, JSON.createObjectNode().put("type", "content_block_stop").put("index", 0));
    ObjectNode end = JSON.createObjectNode().put("type", "message_delta");
    end.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
    end.putObject("usage").put("output_tokens", tokens.size());
    send(events, end);
    send(events, JSON.createObjectNode().put("type", "message_stop"));
  }

  /** One Messages event: named after its {@code type}, as the API sends it. */
  private static void send(LoopbackServer.EventStream events, ObjectNode data) throws IOException {
    events.send(
        "event: " + data.path("type").asText() + "\ndata: " + JSON.writeValueAsString(data));
  }
}
