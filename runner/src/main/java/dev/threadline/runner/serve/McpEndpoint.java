package dev.threadline.runner.serve;

import com.sun.net.httpserver.HttpExchange;
import dev.threadline.runner.serve.mcp.McpServerSpec;
import dev.threadline.runner.serve.mcp.StdioMcpServers;
import java.io.IOException;
import java.util.Map;

/**
 * {@code /mcp/{name}}: stdio MCP servers started in the sandbox, their stdin and stdout piped to
 * the worker ({@code POST} one message, {@code GET} the stream of lines).
 */
final class McpEndpoint {
  private static final int MAX_SPEC_BYTES = 64 * 1024;
  private static final int MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

  private final StdioMcpServers servers;

  McpEndpoint(StdioMcpServers servers) {
    this.servers = servers;
  }

  void handle(HttpExchange exchange) throws IOException {
    String rest = Exchanges.subPath(exchange);
    if (rest == null || rest.isEmpty()) {
      throw FileApiException.notFound("no such endpoint: " + exchange.getRequestURI().getPath());
    }
    String method = exchange.getRequestMethod();
    if (rest.endsWith("/messages")) {
      String name = rest.substring(0, rest.length() - "/messages".length());
      switch (method) {
        case "POST" -> {
          servers.send(name, Exchanges.body(exchange, MAX_MESSAGE_BYTES));
          exchange.sendResponseHeaders(202, -1);
        }
        case "GET" -> {
          servers.requireKnown(name);
          Exchanges.Ndjson stream = Exchanges.ndjson(exchange);
          servers.read(name, stream::raw);
        }
        default -> throw new FileApiException(405, "use POST or GET");
      }
      return;
    }
    switch (method) {
      case "PUT" -> {
        boolean started =
            servers.start(rest, McpServerSpec.parse(Exchanges.body(exchange, MAX_SPEC_BYTES)));
        Exchanges.json(exchange, started ? 201 : 200, Map.of("name", rest, "started", started));
      }
      case "DELETE" -> {
        servers.stop(rest);
        Exchanges.json(exchange, 200, Map.of("name", rest, "stopped", true));
      }
      default -> throw new FileApiException(405, "use PUT or DELETE");
    }
  }
}
