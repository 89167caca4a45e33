package dev.threadline.api.containers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for a container's {@code runner serve} on loopback: the same endpoints and error
 * shapes, files kept in memory, the access token checked. (The real file API has its own tests in
 * the runner module and runs for real in the local-mode end-to-end test.)
 */
final class FakeRunner implements AutoCloseable {
  private final HttpServer server;
  private final String token;
  final Map<String, byte[]> files = new ConcurrentHashMap<>();

  /** Bytes of uploads received so far, counted as they arrive. */
  final AtomicLong received = new AtomicLong();

  FakeRunner(String token) throws IOException {
    this.token = token;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/health", exchange -> reply(exchange, 200, "{\"healthy\":true}".getBytes()));
    server.createContext("/files", this::files);
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  private void files(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!token.equals(exchange.getRequestHeaders().getFirst("X-Threadline-Token"))) {
        error(exchange, 401, "missing or wrong access token");
        return;
      }
      String path = query(exchange);
      if (path != null && (path.contains("..") || path.startsWith("/"))) {
        error(
            exchange,
            400,
            "'" + path + "' is outside the workspace; use a path relative to the workspace");
        return;
      }
      boolean download = exchange.getRequestURI().getPath().equals("/files/download");
      switch (exchange.getRequestMethod()) {
        case "GET" -> {
          if (download) {
            byte[] content = files.get(path);
            if (content == null) {
              error(exchange, 404, "'" + path + "' does not exist");
            } else {
              exchange.getResponseHeaders().set("X-Threadline-Path", path);
              reply(exchange, 200, content);
            }
          } else {
            StringBuilder entries = new StringBuilder();
            new TreeMap<>(files)
                .forEach((name, content) ->
                    entries
                        .append(entries.isEmpty() ? "" : ",")
                        .append("{\"name\":\"")
                        .append(name)
                        .append("\",\"path\":\"")
                        .append(name)
                        .append("\",\"type\":\"file\",\"size\":")
                        .append(content.length)
                        .append("}"));
            reply(
                exchange,
                200,
                ("{\"path\":\"" + path + "\",\"entries\":[" + entries + "]}").getBytes());
          }
        }
        case "PUT" -> {
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          byte[] buffer = new byte[8192];
          for (int n; (n = exchange.getRequestBody().read(buffer)) >= 0; ) {
            bytes.write(buffer, 0, n);
            received.addAndGet(n);
          }
          byte[] content = bytes.toByteArray();
          boolean created = files.put(path, content) == null;
          reply(
              exchange,
              created ? 201 : 200,
              ("{\"path\":\""
                      + path
                      + "\",\"size\":"
                      + content.length
                      + ",\"created\":"
                      + created
                      + "}")
                  .getBytes());
        }
        case "DELETE" -> {
          if (files.remove(path) == null) {
            error(exchange, 404, "'" + path + "' does not exist");
          } else {
            reply(exchange, 200, ("{\"path\":\"" + path + "\",\"deleted\":true}").getBytes());
          }
        }
        default -> error(exchange, 405, "no");
      }
    }
  }

  private static String query(HttpExchange exchange) {
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null || !raw.startsWith("path=")) {
      return null;
    }
    return URLDecoder.decode(raw.substring("path=".length()), StandardCharsets.UTF_8);
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    reply(exchange, status, ("{\"error\":\"x\",\"message\":\"" + message + "\"}").getBytes());
  }

  private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
