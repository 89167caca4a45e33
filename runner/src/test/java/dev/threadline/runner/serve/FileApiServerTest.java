package dev.threadline.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.containers.ContainerObjects;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code runner serve} over real HTTP on loopback: every file operation, confinement, limits,
 * token.
 */
class FileApiServerTest extends SandboxServerTest {
  private static final HttpClient HTTP = SandboxHarness.http();

  private Path workspace;

  @Override
  long maxUploadBytes() {
    return 1024;
  }

  @BeforeEach
  void workspace() {
    workspace = sandbox.workspace;
  }

  @Test
  void aPortHeldForAMomentByAnotherProgramIsTriedAgainUntilItIsFree() throws Exception {
    java.net.ServerSocket other = new java.net.ServerSocket();
    other.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
    int port = other.getLocalPort();
    Thread.ofVirtual()
        .start(() -> {
          try {
            Thread.sleep(600); // fewer than the 20 attempts' 5 s
            other.close();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });

    com.sun.net.httpserver.HttpServer server =
        FileApiServer.bind(new java.net.InetSocketAddress("127.0.0.1", port));
    try {
      assertThat(server.getAddress().getPort()).isEqualTo(port);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void uploadsListsDownloadsOverwritesAndDeletesFiles() throws Exception {
    byte[] binary = new byte[1000];
    new Random(7).nextBytes(binary);

    HttpResponse<String> created = send("PUT", "/files?path=src/data.bin", binary);
    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(json(created).get("path").asText()).isEqualTo("src/data.bin");
    assertThat(json(created).get("size").asLong()).isEqualTo(1000);
    assertThat(json(created).get("created").asBoolean()).isTrue();
    assertThat(Files.readAllBytes(workspace.resolve("src/data.bin"))).isEqualTo(binary);

    HttpResponse<byte[]> download =
        HTTP.send(
            request("GET", "/files/download?path=src/data.bin", null).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(download.statusCode()).isEqualTo(200);
    assertThat(download.body()).isEqualTo(binary);
    assertThat(download.headers().firstValue("Content-Type")).contains("application/octet-stream");

    HttpResponse<String> overwritten = send("PUT", "/files?path=src/data.bin", "short".getBytes());
    assertThat(overwritten.statusCode()).isEqualTo(200);
    assertThat(json(overwritten).get("created").asBoolean()).isFalse();
    assertThat(Files.readString(workspace.resolve("src/data.bin"))).isEqualTo("short");
    send("PUT", "/files?path=readme.md", "# hi".getBytes());

    JsonNode root = json(send("GET", "/files", null));
    assertThat(root.get("path").asText()).isEqualTo(".");
    assertThat(root.get("entries")).hasSize(2);
    assertThat(root.get("entries").get(0).get("name").asText()).isEqualTo("src");
    assertThat(root.get("entries").get(0).get("type").asText()).isEqualTo("directory");
    assertThat(root.get("entries").get(1).get("path").asText()).isEqualTo("readme.md");
    assertThat(root.get("entries").get(1).get("size").asLong()).isEqualTo(4);
    assertThat(root.get("entries").get(1).get("modifiedAt").asText()).endsWith("Z");
    JsonNode src = json(send("GET", "/files?path=src", null));
    assertThat(src.get("entries").get(0).get("path").asText()).isEqualTo("src/data.bin");

    HttpResponse<String> deleted = send("DELETE", "/files?path=readme.md", null);
    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(deleted.body()).contains("\"deleted\":true");
    assertThat(workspace.resolve("readme.md")).doesNotExist();
    assertThat(send("DELETE", "/files?path=src", null).statusCode()).isEqualTo(200);
    assertThat(workspace.resolve("src")).doesNotExist();
  }

  @Test
  void missingFilesAre404AndWrongKindsAreRefused() throws Exception {
    Files.createDirectories(workspace.resolve("folder"));
    Files.writeString(workspace.resolve("file.txt"), "x");

    assertError(
        send("GET", "/files/download?path=nope.txt", null), 404, "'nope.txt' does not exist");
    assertError(send("DELETE", "/files?path=nope.txt", null), 404, "'nope.txt' does not exist");
    assertError(send("GET", "/files?path=nope", null), 404, "'nope' does not exist");
    assertThat(send("GET", "/files/download?path=folder", null).statusCode()).isEqualTo(400);
    assertThat(send("GET", "/files?path=file.txt", null).statusCode()).isEqualTo(400);
    assertThat(send("PUT", "/files?path=folder", "x".getBytes()).statusCode()).isEqualTo(409);
    assertThat(send("PUT", "/files?path=file.txt/inner", "x".getBytes()).statusCode())
        .isEqualTo(409);
    assertThat(send("DELETE", "/files?path=.", null).statusCode()).isEqualTo(400);
    assertThat(send("PUT", "/files", "x".getBytes()).statusCode()).isEqualTo(400);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "../x",
        "..%2fx",
        "..%2F..%2Fetc%2Fpasswd",
        "a/../../x",
        "/etc/passwd",
        "%2Fetc%2Fpasswd",
        "link/secret.txt",
        "linkfile"
      })
  void pathsOutsideTheWorkspaceAreRefusedForEveryOperation(String path) throws Exception {
    Path outside = Files.createDirectories(temp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "secret");
    Files.createSymbolicLink(workspace.resolve("link"), outside);
    Files.createSymbolicLink(workspace.resolve("linkfile"), outside.resolve("secret.txt"));

    assertThat(send("GET", "/files/download?path=" + path, null).statusCode()).isEqualTo(400);
    assertThat(send("GET", "/files?path=" + path, null).statusCode()).isEqualTo(400);
    assertThat(send("PUT", "/files?path=" + path, "pwned".getBytes()).statusCode()).isEqualTo(400);
    assertThat(send("DELETE", "/files?path=" + path, null).statusCode()).isEqualTo(400);
    assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("secret");
    assertThat(temp.resolve("x")).doesNotExist();
  }

  @Test
  void uploadsLargerThanTheLimitAreRefusedAndLeaveNothing() throws Exception {
    HttpResponse<String> tooLarge = send("PUT", "/files?path=big.bin", new byte[1025]);

    assertError(tooLarge, 413, "uploads may have at most 1024 bytes");
    assertThat(workspace.resolve("big.bin")).doesNotExist();
    try (var files = Files.list(workspace)) {
      assertThat(files).isEmpty();
    }
    assertThat(send("PUT", "/files?path=ok.bin", new byte[1024]).statusCode()).isEqualTo(201);
  }

  @Test
  void healthNeedsNoTokenButFilesDo() throws Exception {
    HttpResponse<String> health =
        HTTP.send(
            HttpRequest.newBuilder(uri("/health")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(json(health).get("healthy").asBoolean()).isTrue();

    HttpResponse<String> anonymous =
        HTTP.send(
            HttpRequest.newBuilder(uri("/files")).build(), HttpResponse.BodyHandlers.ofString());
    assertError(anonymous, 401, "missing or wrong credential");
    assertThat(json(anonymous).get("error").asText()).isEqualTo("unauthorized");
    HttpResponse<String> wrong =
        HTTP.send(
            HttpRequest.newBuilder(uri("/files")).header("Authorization", "Bearer guess").build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(wrong.statusCode()).isEqualTo(401);
    HttpResponse<String> legacyHeader =
        HTTP.send(
            HttpRequest.newBuilder(uri("/files"))
                .header(ContainerObjects.TOKEN_HEADER, SandboxHarness.TOKEN)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(legacyHeader.statusCode()).isEqualTo(200);
    assertThat(send("GET", "/elsewhere", null).statusCode()).isEqualTo(404);
  }

  @Test
  void serveCommandRefusesBadOptions() {
    var err = new java.io.ByteArrayOutputStream();
    int code = new ServeCommand(new java.io.PrintStream(err)).execute(new String[] {"--port", "x"});

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--port must be a whole number");
  }

  private HttpResponse<String> send(String method, String pathAndQuery, byte[] body)
      throws Exception {
    return sandbox.send(method, pathAndQuery, body);
  }

  private HttpRequest.Builder request(String method, String pathAndQuery, byte[] body) {
    return sandbox.request(method, pathAndQuery, body);
  }

  private URI uri(String pathAndQuery) {
    return sandbox.uri(pathAndQuery);
  }

  private static JsonNode json(HttpResponse<String> response) {
    return SandboxHarness.json(response);
  }

  private static void assertError(HttpResponse<String> response, int status, String message) {
    SandboxHarness.assertError(response, status, message);
  }
}
