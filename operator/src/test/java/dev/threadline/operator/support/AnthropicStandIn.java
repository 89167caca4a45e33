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
 * An Anthropic Messages endpoint on 127.0.0.1 for tests: answers queued texts as the Messages SSE
 * stream ({@code message_start}, one text block of {@code text_delta}s, {@code message_delta} with
 * the usage, {@code message_stop}), with a delay before the first token and between tokens. It
 * records every request, so a test can count model calls.
 */
public final class AnthropicStandIn implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final ConcurrentLinkedQueue<List<String>> replies = new ConcurrentLinkedQueue<>();
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private final Duration firstToken;
  private final Duration perToken;

  public AnthropicStandIn(Duration firstToken, Duration perToken) throws IOException {
    this.firstToken = firstToken;
    this.perToken = perToken;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** The base URL to configure the Anthropic client with. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Queues a text answer written as these tokens. */
  public AnthropicStandIn answerText(String... tokens) {
    replies.add(List.of(tokens));
    return this;
  }

  /** The request bodies received, in order. */
  public List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      requests.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
      List<String> tokens = replies.poll();
      if (tokens == null) {
        byte[] body =
            "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"no reply\"}}"
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(500, body.length);
        exchange.getResponseBody().write(body);
        return;
      }
      stream(exchange, tokens);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException clientGone) {
      // The client hung up: nothing left to answer.
    }
  }

  private void stream(HttpExchange exchange, List<String> tokens)
      throws IOException, InterruptedException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
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
      event(out, "message_start", start);
      ObjectNode blockStart =
          JSON.createObjectNode().put("type", "content_block_start").put("index", 0);
      blockStart.putObject("content_block").put("type", "text").put("text", "");
      event(out, "content_block_start", blockStart);
      Thread.sleep(firstToken.toMillis());
      for (int i = 0; i < tokens.size(); i++) {
        if (i > 0) {
          Thread.sleep(perToken.toMillis());
        }
        ObjectNode delta =
            JSON.createObjectNode().put("type", "content_block_delta").put("index", 0);
        delta.putObject("delta").put("type", "text_delta").put("text", tokens.get(i));
        event(out, "content_block_delta", delta);
      }
      event(
          out,
          "content_block_stop",
          JSON.createObjectNode().put("type", "content_block_stop").put("index", 0));
      ObjectNode end = JSON.createObjectNode().put("type", "message_delta");
      end.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
      end.putObject("usage").put("output_tokens", tokens.size());
      event(out, "message_delta", end);
      event(out, "message_stop", JSON.createObjectNode().put("type", "message_stop"));
    }
  }

  private static void event(OutputStream out, String type, JsonNode data) throws IOException {
    out.write(
        ("event: " + type + "\ndata: " + JSON.writeValueAsString(data) + "\n\n")
            .getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
