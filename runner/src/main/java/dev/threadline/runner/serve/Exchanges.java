package dev.threadline.runner.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Small helpers over {@link HttpExchange}: query parameters and JSON answers. */
final class Exchanges {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Exchanges() {}

  /**
   * The query parameters, each decoded exactly once: {@code ..%2f} arrives as {@code ../} and is
   * judged as such by the workspace confinement. The first value of a repeated name wins.
   */
  static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> parameters = new LinkedHashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return parameters;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
      parameters.putIfAbsent(name, value);
    }
    return parameters;
  }

  static void json(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  static void error(HttpExchange exchange, int status, String message) throws IOException {
    json(exchange, status, Map.of("error", reason(status), "message", message));
  }

  /** The request's body, refused with 413 past {@code maxBytes}. */
  static byte[] body(HttpExchange exchange, int maxBytes) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(maxBytes + 1);
      if (body.length > maxBytes) {
        throw new FileApiException(413, "the body may have at most " + maxBytes + " bytes");
      }
      return body;
    }
  }

  /**
   * The part of the path after the endpoint's own: {@code /calls/tool_3} → {@code tool_3}, {@code
   * /calls} → empty; null when the path only starts with the same letters ({@code /callsx}).
   */
  static String subPath(HttpExchange exchange) {
    String path = exchange.getRequestURI().getPath();
    String rest = path.substring(exchange.getHttpContext().getPath().length());
    if (rest.isEmpty() || rest.equals("/")) {
      return "";
    }
    return rest.startsWith("/") ? rest.substring(1) : null;
  }

  /** Starts a streamed {@code application/x-ndjson} answer; each line is flushed as it is sent. */
  static Ndjson ndjson(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    out.flush(); // the headers go now, not with the first line: a quiet command may take minutes
    return new Ndjson(out);
  }

  /** A streamed answer, one JSON value per line. */
  static final class Ndjson {
    private final OutputStream out;

    private Ndjson(OutputStream out) {
      this.out = out;
    }

    void object(Object value) throws IOException {
      raw(JSON.writeValueAsString(value));
    }

    /** A line that is already one JSON value. */
    void raw(String line) throws IOException {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  private static String reason(int status) {
    return switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthorized";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 409 -> "conflict";
      case 413 -> "payload_too_large";
      default -> "internal_error";
    };
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      throw FileApiException.badRequest("the query string is not properly encoded");
    }
  }
}
