package dev.threadline.operator.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An OpenAI-compatible chat completions endpoint on 127.0.0.1 for tests. It answers queued replies
 * (text written token by token, or one tool call), as one JSON body or, when the request asks for
 * {@code stream}, as SSE chunks with a delay before the first token and between tokens. It records
 * every request, so a test can count model calls.
 */
public final class OpenAiStandIn implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Reply(List<String> tokens, String toolName, String toolArguments) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private final Duration firstToken;
  private final Duration perToken;

  public OpenAiStandIn(Duration firstToken, Duration perToken) throws IOException {
    this.firstToken = firstToken;
    this.perToken = perToken;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** The base URL to configure a client with, e.g. http://127.0.0.1:1234/v1. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** Queues a text answer written as these tokens. */
  public OpenAiStandIn answerText(String... tokens) {
    replies.add(new Reply(List.of(tokens), null, null));
    return this;
  }

  /** Queues a reply that calls {@code tool} with these JSON arguments. */
  public OpenAiStandIn answerToolCall(String tool, String argumentsJson) {
    replies.add(new Reply(List.of(), tool, argumentsJson));
    return this;
  }

  /** The request bodies received, in order. */
  public List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
      requests.add(body);
      Reply reply = replies.poll();
      if (reply == null) {
        send(exchange, 500, "application/json", "{\"error\":{\"message\":\"no reply queued\"}}");
      } else if (body.path("stream").asBoolean(false)) {
        stream(exchange, reply);
      } else {
        send(exchange, 200, "application/json", JSON.writeValueAsString(completion(reply)));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException clientGone) {
      // The client hung up: nothing left to answer.
    }
  }

  private void stream(HttpExchange exchange, Reply reply) throws IOException, InterruptedException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      Thread.sleep(firstToken.toMillis());
      for (int i = 0; i < reply.tokens().size(); i++) {
        if (i > 0) {
          Thread.sleep(perToken.toMillis());
        }
        ObjectNode delta = JSON.createObjectNode().put("content", reply.tokens().get(i));
        writeEvent(out, chunk(delta, null));
      }
      if (reply.toolName() != null) {
        ObjectNode delta = JSON.createObjectNode();
        ObjectNode call = delta.putArray("tool_calls").addObject();
        call.put("index", 0).put("id", "call_1").put("type", "function");
        call.putObject("function")
            .put("name", reply.toolName())
            .put("arguments", reply.toolArguments());
        writeEvent(out, chunk(delta, null));
      }
      writeEvent(
          out, chunk(JSON.createObjectNode(), reply.toolName() == null ? "stop" : "tool_calls"));
      ObjectNode usage = base();
      usage.putArray("choices");
      usage.set("usage", usage(reply));
      writeEvent(out, usage);
      out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  private static void writeEvent(OutputStream out, JsonNode data) throws IOException {
    out.write(("data: " + JSON.writeValueAsString(data) + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
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

  private static void send(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
