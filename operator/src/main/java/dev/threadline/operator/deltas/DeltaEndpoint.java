package dev.threadline.operator.deltas;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.operator.http.Responses;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Serves {@code GET /internal/v1/deltas/<session>} on the operator's HTTP port: the session's lines
 * as NDJSON, each flushed as it comes, until the producer closes it. Only callers that present the
 * internal token get anything (401 otherwise); an unknown or expired session is a 404.
 */
public final class DeltaEndpoint implements HttpHandler {
  private static final Duration POLL = Duration.ofSeconds(15);

  private final DeltaHub hub;

  public DeltaEndpoint(DeltaHub hub) {
    this.hub = hub;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        Responses.send(exchange, 405, "text/plain", "GET only");
        return;
      }
      if (!authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
        Responses.send(exchange, 401, "text/plain", "unauthorized");
        return;
      }
      String id = exchange.getRequestURI().getPath().substring(DeltaWire.PATH.length());
      Optional<DeltaSession> session = hub.find(id);
      if (session.isEmpty()) {
        Responses.send(exchange, 404, "text/plain", "no such session");
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
      exchange.getResponseHeaders().set("Cache-Control", "no-cache");
      exchange.sendResponseHeaders(200, 0);
      stream(session.get(), exchange.getResponseBody());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void stream(DeltaSession session, OutputStream out)
      throws IOException, InterruptedException {
    int read = 0;
    while (!session.isDrained(read)) {
      List<String> lines = session.read(read, POLL);
      if (lines.isEmpty()) {
        continue;
      }
      StringBuilder chunk = new StringBuilder();
      lines.forEach(line -> chunk.append(line).append('\n'));
      out.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      read += lines.size();
    }
  }

  private boolean authorized(String header) {
    String token = hub.token();
    if (token.isEmpty() || header == null || !header.startsWith("Bearer ")) {
      return false;
    }
    return MessageDigest.isEqual(
        header.substring("Bearer ".length()).strip().getBytes(StandardCharsets.UTF_8),
        token.getBytes(StandardCharsets.UTF_8));
  }
}
