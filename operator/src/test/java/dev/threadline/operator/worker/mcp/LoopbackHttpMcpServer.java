package dev.threadline.operator.worker.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A streamable-HTTP MCP server on loopback with one tool, {@code shout}, answering JSON (no SSE):
 * enough for the SDK's client. It remembers the Authorization headers it was sent.
 */
public final class LoopbackHttpMcpServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  public final List<String> authorizations = new CopyOnWriteArrayList<>();

  public LoopbackHttpMcpServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/mcp", this::handle);
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp";
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("POST")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
      JsonNode message = JSON.readTree(exchange.getRequestBody());
      if (!message.has("id")) {
        exchange.sendResponseHeaders(202, -1);
        return;
      }
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
          result
              .putArray("content")
              .addObject()
              .put("type", "text")
              .put("text", text.toUpperCase());
          result.put("isError", false);
        }
        default -> {}
      }
      ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
      answer.set("id", message.get("id"));
      answer.set("result", result);
      byte[] body = JSON.writeValueAsBytes(answer);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
