package dev.threadline.operator.worker;

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
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sandbox's {@code POST /calls} on loopback, answered at once: {@code run_command} prints a
 * line, {@code write_file} keeps the file; calls are kept by credential and id (each run has its
 * own, as each has its own sandbox), so a repeated id replays.
 */
final class StandInSandbox implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Map<String, ObjectNode> results = new java.util.concurrent.ConcurrentHashMap<>();
  final AtomicLong calls = new AtomicLong();

  StandInSandbox() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/calls", this::call);
    server.start();
  }

  SandboxAddress address(String run) {
    return SandboxAddress.of("127.0.0.1", server.getAddress().getPort(), "credential-" + run);
  }

  private void call(HttpExchange exchange) throws IOException {
    try (exchange) {
      String credential = exchange.getRequestHeaders().getFirst("Authorization");
      JsonNode body = JSON.readTree(exchange.getRequestBody());
      ObjectNode result =
          results.computeIfAbsent(
              credential + " " + body.path("id").asText(), key -> execute(body));
      ObjectNode line = JSON.createObjectNode().put("type", "result");
      line.set("result", result);
      byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private ObjectNode execute(JsonNode body) {
    calls.incrementAndGet();
    JsonNode arguments = body.path("arguments");
    ObjectNode result = JSON.createObjectNode();
    if (body.path("tool").asText().equals("run_command")) {
      return result
          .put("type", "command_execution")
          .put("succeeded", true)
          .put("command", arguments.path("command").asText())
          .put("output", "notes.txt\n")
          .put("exitCode", 0)
          .put("forModel", "{\"exit_code\":0,\"output\":\"notes.txt\\n\"}");
    }
    return result
        .put("type", "file_write")
        .put("succeeded", true)
        .put("path", arguments.path("path").asText())
        .put("output", "created " + arguments.path("path").asText());
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
