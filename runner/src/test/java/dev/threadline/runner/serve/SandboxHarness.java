package dev.threadline.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** A real {@code serve} on a loopback port over a temporary workspace, and a client for it. */
final class SandboxHarness implements AutoCloseable {
  static final String TOKEN = "s3cret-token-of-at-least-32-bytes!";
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  final Path workspace;
  final FileApiServer server;

  SandboxHarness(Path temp, long maxUploadBytes) throws IOException {
    workspace = Files.createDirectories(temp.resolve("workspace"));
    Path tokenFile = Files.writeString(temp.resolve("token"), TOKEN + "\n");
    server =
        FileApiServer.start(new ServeOptions(workspace, "127.0.0.1", 0, tokenFile, maxUploadBytes));
  }

  HttpResponse<String> send(String method, String pathAndQuery, byte[] body) throws Exception {
    return HTTP.send(
        request(method, pathAndQuery, body).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> send(String method, String pathAndQuery, String body) throws Exception {
    return send(method, pathAndQuery, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
  }

  /** A streamed answer, line by line as it arrives. */
  HttpResponse<Stream<String>> stream(String method, String pathAndQuery, String body)
      throws Exception {
    return HTTP.send(
        request(method, pathAndQuery, body == null ? null : body.getBytes(StandardCharsets.UTF_8))
            .build(),
        HttpResponse.BodyHandlers.ofLines());
  }

  /** Every line of an NDJSON answer, once it ends. */
  List<JsonNode> ndjson(String method, String pathAndQuery, String body) throws Exception {
    HttpResponse<Stream<String>> response = stream(method, pathAndQuery, body);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("application/x-ndjson");
    try (Stream<String> lines = response.body()) {
      return lines.map(SandboxHarness::json).toList();
    }
  }

  HttpRequest.Builder request(String method, String pathAndQuery, byte[] body) {
    return HttpRequest.newBuilder(uri(pathAndQuery))
        .header("Authorization", "Bearer " + TOKEN)
        .method(
            method,
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
  }

  static HttpClient http() {
    return HTTP;
  }

  static JsonNode json(HttpResponse<String> response) {
    return json(response.body());
  }

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  static void assertError(HttpResponse<String> response, int status, String message) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(json(response).get("message").asText()).contains(message);
  }

  @Override
  public void close() {
    server.close();
  }
}
