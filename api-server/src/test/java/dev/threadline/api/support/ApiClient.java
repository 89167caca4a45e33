package dev.threadline.api.support;

import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Calls the API server over real HTTP, as a client would. */
public final class ApiClient {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final String baseUrl;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public ApiClient(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  public String baseUrl() {
    return baseUrl;
  }

  public Response get(String path, String key) {
    return send("GET", path, key, null, null);
  }

  public Response delete(String path, String key) {
    return send("DELETE", path, key, null, null);
  }

  public Response post(String path, String key, String json) {
    return send("POST", path, key, json, "application/json");
  }

  public Response patch(String path, String key, String json) {
    return send("PATCH", path, key, json, "application/json");
  }

  /** A JSON POST sent in chunks, with no Content-Length. */
  public Response postInChunks(String path, String key, String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(20))
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json"));
  }

  /** Any request; {@code key} and {@code body} may be null. */
  public Response send(String method, String path, String key, String body, String contentType) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(20))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Authorization", "Bearer " + key);
    }
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return send(request);
  }

  /** A GET that accepts only the given media type. */
  public Response getAccepting(String path, String key, String accept) {
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .GET()
            .header("Authorization", "Bearer " + key)
            .header("Accept", accept));
  }

  /** A request with a raw Authorization header value (or none when null). */
  public Response getWithAuthorization(String path, String authorization) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return send(request);
  }

  /**
   * A request written byte for byte on a socket, for targets no URI class lets through (a lone
   * {@code %} in the query). {@code body} may be null.
   */
  public Response raw(String method, String target, String key, String contentType, String body) {
    URI base = URI.create(baseUrl);
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n");
    head.append("Connection: close\r\n");
    if (key != null) {
      head.append("Authorization: Bearer ").append(key).append("\r\n");
    }
    if (contentType != null) {
      head.append("Content-Type: ").append(contentType).append("\r\n");
    }
    head.append("Content-Length: ").append(content.length).append("\r\n\r\n");
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(content);
      out.flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int status = Integer.parseInt(answer.substring(9, 12));
      int bodyStart = answer.indexOf("\r\n\r\n");
      String headers = answer.substring(0, bodyStart);
      String text = answer.substring(bodyStart + 4);
      if (headers.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
        text = unchunk(text);
      }
      java.net.http.HttpHeaders parsed =
          java.net.http.HttpHeaders.of(
              headers
                  .lines()
                  .skip(1)
                  .filter(line -> line.indexOf(':') > 0)
                  .collect(
                      Collectors.groupingBy(
                          line -> line.substring(0, line.indexOf(':')).strip(),
                          Collectors.mapping(
                              line -> line.substring(line.indexOf(':') + 1).strip(),
                              Collectors.toList()))),
              (name, value) -> true);
      return new Response(status, parsed, text, parse(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String unchunk(String chunked) {
    StringBuilder body = new StringBuilder();
    int at = 0;
    while (true) {
      int lineEnd = chunked.indexOf("\r\n", at);
      int size = Integer.parseInt(chunked.substring(at, lineEnd).strip(), 16);
      if (size == 0) {
        return body.toString();
      }
      body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
  }

  /** Waits until the server's caches know the key (informers are eventually consistent). */
  public void awaitAccepted(String key) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> get("/v1/agents?limit=1", key).status() == 200);
  }

  private Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(
          response.statusCode(), response.headers(), response.body(), parse(response.body()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? null : JSON.readTree(body);
    } catch (RuntimeException notJson) {
      return null;
    }
  }

  /** A response: status, headers, the raw body and, when it is JSON, the parsed body. */
  public record Response(
      int status, java.net.http.HttpHeaders headers, String body, JsonNode json) {
    public String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    public String text(String field) {
      JsonNode value = json == null ? null : json.get(field);
      return value == null || value.isNull() ? null : value.asString();
    }
  }
}
