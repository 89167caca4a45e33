package dev.threadline.operator.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.threadline.models.ModelSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * An OpenAI-compatible chat completions endpoint on 127.0.0.1 for tests. It answers queued replies
 * (text written token by token, or one tool call), as one JSON body or, when the request asks for
 * {@code stream}, as SSE chunks with a delay before the first token and between tokens. It records
 * every request, so a test can count model calls.
 */
public final class OpenAiStandIn extends ModelStandIn<OpenAiStandIn.Reply> {
  /**
   * Text written as these tokens, then (when {@code toolName} is set) one call of that tool, sent
   * as {@code stream} says.
   */
  record Reply(List<String> tokens, String toolName, String toolArguments, Stream stream) {
    Reply(List<String> tokens, String toolName, String toolArguments) {
      this(tokens, toolName, toolArguments, Stream.WHOLE);
    }
  }

  /** How a streamed reply ends. */
  public enum Stream {
    /** As the API sends it: the finishing chunk, the usage in a chunk of its own, [DONE]. */
    WHOLE,
    /**
     * The usage in the finishing chunk, as some compatible servers send it: the OpenAI SDK's
     * accumulator refuses that chunk ({@code choices is required}).
     */
    USAGE_IN_THE_FINISHING_CHUNK,
    /** The tokens, then the answer ends: no finishing chunk, no usage, no [DONE]. */
    CUT_OFF
  }

  public OpenAiStandIn(Duration firstToken, Duration perToken) {
    super(
        ModelSettings.OPENAI,
        "{\"error\":{\"message\":\"no reply queued\"}}",
        firstToken,
        perToken);
  }

  /** The base URL to configure a client with, e.g. http://127.0.0.1:1234/v1. */
  @Override
  public String baseUrl() {
    return address() + "/v1";
  }

  /** Queues a text answer written as these tokens. */
  public OpenAiStandIn answerText(String... tokens) {
    queue(new Reply(List.of(tokens), null, null));
    return this;
  }

  /** Queues a streamed text answer that ends as {@code stream} says. */
  public OpenAiStandIn answerStreamed(Stream stream, String... tokens) {
    queue(new Reply(List.of(tokens), null, null, stream));
    return this;
  }

  /** Queues a reply that calls {@code tool} with these JSON arguments. */
  public OpenAiStandIn answerToolCall(String tool, String argumentsJson) {
    queue(new Reply(List.of(), tool, argumentsJson));
    return this;
  }

  @Override
  protected String errorBody(String message) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error").put("message", message).put("type", "server_error");
    return body.toString();
  }

  @Override
  protected void answer(HttpExchange exchange, JsonNode body, Reply reply)
      throws IOException, InterruptedException {
    if (body.path("stream").asBoolean(false)) {
      stream(exchange, reply);
    } else {
      LoopbackServer.respond(
          exchange, 200, "application/json", JSON.writeValueAsString(completion(reply)));
    }
  }

  private void stream(HttpExchange exchange, Reply reply) throws IOException, InterruptedException {
    LoopbackServer.EventStream events = LoopbackServer.eventStream(exchange);
    paced(
        reply.tokens(),
        token -> send(events, chunk(JSON.createObjectNode().put("content", token), null)));
    if (reply.toolName() != null) {
      ObjectNode delta = JSON.createObjectNode();
      ObjectNode call = delta.putArray("tool_calls").addObject();
      call.put("index", 0).put("id", "call_1").put("type", "function");
      call.putObject("function")
          .put("name", reply.toolName())
          .put("arguments", reply.toolArguments());
      send(events, chunk(delta, null));
    }
    if (reply.stream() == Stream.CUT_OFF) {
      return;
    }
    ObjectNode finish =
        chunk(JSON.createObjectNode(), reply.toolName() == null ? "stop" : "tool_calls");
    if (reply.stream() == Stream.USAGE_IN_THE_FINISHING_CHUNK) {
      finish.set("usage", usage(reply));
      send(events, finish);
      events.send("data: [DONE]");
      return;
    }
    send(events, finish);
    ObjectNode usage = base();
    usage.putArray("choices");
    usage.set("usage", usage(reply));
    send(events, usage);
    events.send("data: [DONE]");
  }

  private static void send(LoopbackServer.EventStream events, JsonNode data) throws IOException {
    events.send("data: " + JSON.writeValueAsString(data));
  }

  private static ObjectNode chunk(ObjectNode delta, String finishReason) {
    ObjectNode chunk = base().put("object", "chat.completion.chunk");
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.set("delta", delta);
    if (finishReason == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finishReason);
    }
    return chunk;
  }

  private static ObjectNode completion(Reply reply) {
    ObjectNode completion = base().put("object", "chat.completion");
    ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    message.put("content", String.join("", reply.tokens()));
    if (reply.toolName() != null) {
      ObjectNode call = message.putArray("tool_calls").addObject();
      call.put("id", "call_1").put("type", "function");
      call.putObject("function")
          .put("name", reply.toolName())
          .put("arguments", reply.toolArguments());
    }
    choice.put("finish_reason", reply.toolName() == null ? "stop" : "tool_calls");
    completion.set("usage", usage(reply));
    return completion;
  }

  private static ObjectNode base() {
    return JSON.createObjectNode()
        .put("id", "chatcmpl-standin")
        .put("object", "chat.completion.chunk")
        .put("created", 1_700_000_000L)
        .put("model", "stand-in");
  }

  private static ObjectNode usage(Reply reply) {
    int output = Math.max(1, reply.tokens().size());
    return JSON.createObjectNode()
        .put("prompt_tokens", 20)
        .put("completion_tokens", output)
        .put("total_tokens", 20 + output);
  }
}
