package dev.threadline.operator.worker.mcp;

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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * An MCP server on loopback with one tool, {@code shout}, enough for the worker's client. It speaks
 * streamable HTTP answering JSON ({@link Style#JSON}) or a server-sent event stream with a session
 * id ({@link Style#EVENT_STREAM}), or the older HTTP+SSE transport ({@link Style#LEGACY_SSE}: the
 * GET {@code /sse} stream names {@code /messages} as its endpoint). It remembers the Authorization
 * and session headers it was sent.
 */
public final class LoopbackHttpMcpServer implements AutoCloseable {
  /** How the server answers. */
  public enum Style {
    JSON,
    EVENT_STREAM,
    LEGACY_SSE
  }

  static final String SESSION = "session-7";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Style style;
  public final List<String> authorizations = new CopyOnWriteArrayList<>();
  public final List<String> sessionHeaders = new CopyOnWriteArrayList<>();
  public final List<String> deletes = new CopyOnWriteArrayList<>();
  public final List<String> legacyPosts = new CopyOnWriteArrayList<>();
  private final String legacyEndpoint;
  private volatile OutputStream legacyStream;

  public LoopbackHttpMcpServer() throws IOException {
    this(Style.JSON);
  }

  public LoopbackHttpMcpServer(Style style) throws IOException {
    this(style, "/messages?sessionId=1");
  }

  /**
   * @param legacyEndpoint what the {@link Style#LEGACY_SSE} stream names as its endpoint
   */
  public LoopbackHttpMcpServer(Style style, String legacyEndpoint) throws IOException {
    this.style = style;
    this.legacyEndpoint = legacyEndpoint;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/mcp", this::streamable);
    server.createContext("/sse", this::legacyStream);
    server.createContext("/messages", this::legacyMessage);
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The URL on {@code host} (a name the test's resolver answers, or 127.0.0.1). */
  public String url(String host) {
    return "http://" + host + ":" + port() + (style == Style.LEGACY_SSE ? "/sse" : "/mcp");
  }

  public String url() {
    return url("127.0.0.1");
  }

  private void streamable(HttpExchange exchange) throws IOException {
    try (exchange) {
      authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
      sessionHeaders.add(String.valueOf(exchange.getRequestHeaders().getFirst("Mcp-Session-Id")));
      if (exchange.getRequestMethod().equals("DELETE")) {
        deletes.add(String.valueOf(exchange.getRequestHeaders().getFirst("Mcp-Session-Id")));
        exchange.sendResponseHeaders(204, -1);
        return;
      }
      if (!exchange.getRequestMethod().equals("POST")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      JsonNode message = JSON.readTree(exchange.getRequestBody());
      if (!message.has("id")) {
        exchange.sendResponseHeaders(202, -1);
        return;
      }
      byte[] answer = JSON.writeValueAsBytes(answer(message));
      if (style == Style.EVENT_STREAM) {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Mcp-Session-Id", SESSION);
        exchange.sendResponseHeaders(200, 0);
        // A comment and a two-line data field, as a server may write them.
        String json = new String(answer, StandardCharsets.UTF_8);
        int cut = json.indexOf(',') + 1;
        exchange
            .getResponseBody()
            .write(
                (": keep-alive\n\nevent: message\ndata: "
                        + json.substring(0, cut)
                        + "\ndata: "
                        + json.substring(cut)
                        + "\n\n")
                    .getBytes(StandardCharsets.UTF_8));
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
    }
  }

  /** Keeps the GET open: the messages' answers are written to it. */
  private void legacyStream(HttpExchange exchange) throws IOException {
    authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    out.write(
        ("event: endpoint\ndata: " + legacyEndpoint + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
    legacyStream = out;
  }

  private void legacyMessage(HttpExchange exchange) throws IOException {
    try (exchange) {
      authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
      JsonNode message = JSON.readTree(exchange.getRequestBody());
      legacyPosts.add(message.path("method").asText());
      exchange.sendResponseHeaders(202, -1);
      if (message.has("id")) {
        String event = "event: message\ndata: " + JSON.writeValueAsString(answer(message)) + "\n\n";
        synchronized (this) {
          legacyStream.write(event.getBytes(StandardCharsets.UTF_8));
          legacyStream.flush();
        }
      }
    }
  }

  private static ObjectNode answer(JsonNode message) {
    ObjectNode result = JSON.createObjectNode();
    switch (message.path("method").asText()) {
      case "initialize" -> {
        result.put("protocolVersion", message.path("params").path("protocolVersion").asText());
        result.putObject("capabilities").putObject("tools");
        result.putObject("serverInfo").put("name", "shout").put("version", "1");
      }
      case "tools/list" -> {
        ObjectNode tool = result.putArray("tools").addObject();
        tool.put("name", "shout").put("description", "Upper-cases its text");
        tool.putObject("inputSchema").put("type", "object");
      }
      case "tools/call" -> {
        String text = message.path("params").path("arguments").path("text").asText();
        result.putArray("content").addObject().put("type", "text").put("text", text.toUpperCase());
        result.put("isError", false);
      }
      default -> {}
    }
    ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
    answer.set("id", message.get("id"));
    answer.set("result", result);
    return answer;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
