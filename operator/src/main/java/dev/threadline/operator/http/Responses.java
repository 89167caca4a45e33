package dev.threadline.operator.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Whole answers on the JDK's {@link HttpExchange}: status, content type and a body of known length.
 */
public final class Responses {
  private Responses() {}

  public static void send(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    send(exchange, status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  /** An empty {@code body} is sent as no body at all (length -1), as HTTP wants for 204. */
  public static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
