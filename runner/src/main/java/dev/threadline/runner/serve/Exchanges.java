package dev.threadline.runner.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
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

  private static String reason(int status) {
    return switch (status) {
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 413 -> "Payload Too Large";
      default -> "Internal Server Error";
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
