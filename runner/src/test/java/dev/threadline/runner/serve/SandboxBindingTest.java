package dev.threadline.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.containers.SandboxProof;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A warm-pool sandbox: unbound until one bind, then the run's credential and env; archives. */
class SandboxBindingTest {
  private static final String POOL = "pool-credential-only-the-operator-knows";
  private static final String RUN = "run-credential-of-at-least-thirty-two-chars";

  @TempDir Path temp;
  private Path workspace;
  private FileApiServer server;

  @BeforeEach
  void start() throws Exception {
    workspace = Files.createDirectories(temp.resolve("workspace"));
    Path poolFile = Files.writeString(temp.resolve("pool"), POOL);
    server =
        FileApiServer.start(
            new ServeOptions(workspace, "127.0.0.1", 0, null, 1024 * 1024, poolFile));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void anUnboundSandboxOpensNothingButTheBindAndThePoolCredentialOnlyOnce() throws Exception {
    assertThat(send("GET", "/files?path=.", POOL, null).statusCode()).isEqualTo(401);
    assertThat(send("POST", "/bind", "wrong", bind()).statusCode()).isEqualTo(401);
    assertThat(send("POST", "/bind", POOL, "{\"token\":\"short\"}").statusCode()).isEqualTo(400);
    assertThat(send("POST", "/bind", POOL, "{\"token\":\"" + RUN + "\",\"env\":{\"1X\":\"v\"}}"))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(400);

    assertThat(send("POST", "/bind", POOL, bind()).statusCode()).isEqualTo(200);

    assertThat(send("GET", "/files?path=.", RUN, null).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/files?path=.", POOL, null).statusCode()).isEqualTo(401);
    // Spent: neither the pool credential nor the run's binds again.
    assertThat(send("POST", "/bind", POOL, bind()).statusCode()).isEqualTo(401);
    assertThat(send("POST", "/bind", RUN, bind()).statusCode()).isEqualTo(401);
  }

  @Test
  void healthProvesThePoolCredentialUntilTheBindAndTheRunsAfterWithoutShowingEither()
      throws Exception {
    String challenge = SandboxProof.challenge();
    HttpResponse<String> unbound = send("GET", "/health?challenge=" + challenge, null, null);
    assertThat(unbound.statusCode()).isEqualTo(200);
    String proof = SandboxHarness.json(unbound).get("proof").asText();
    assertThat(SandboxProof.proves(POOL, challenge, proof)).isTrue();
    assertThat(SandboxProof.proves(RUN, challenge, proof)).isFalse();
    assertThat(unbound.body()).doesNotContain(POOL);

    send("POST", "/bind", POOL, bind());

    String next = SandboxProof.challenge();
    String bound =
        SandboxHarness.json(send("GET", "/health?challenge=" + next, null, null))
            .get("proof")
            .asText();
    assertThat(SandboxProof.proves(RUN, next, bound)).isTrue();
    assertThat(SandboxProof.proves(POOL, next, bound)).isFalse();
    // A plain probe still needs no challenge; an oversized one is refused.
    assertThat(SandboxHarness.json(send("GET", "/health", null, null)).has("proof")).isFalse();
    assertThat(send("GET", "/health?challenge=" + "x".repeat(129), null, null).statusCode())
        .isEqualTo(400);
  }

  @Test
  void commandsSeeTheVariablesBoundLate() throws Exception {
    send("POST", "/bind", POOL, bind());
    HttpResponse<String> call =
        send(
            "POST",
            "/calls",
            RUN,
            "{\"id\":\"c1\",\"tool\":\"run_command\",\"arguments\":{\"command\":\"echo"
                + " $GREETING\"}}");
    List<JsonNode> lines = call.body().lines().map(SandboxHarness::json).toList();
    assertThat(lines.getLast().at("/result/output").asText()).contains("hello from the run");
  }

  @Test
  void theWorkspaceGoesOutAsAZipAndComesBackReplacingWhatWasThere() throws Exception {
    send("POST", "/bind", POOL, bind());
    Files.createDirectories(workspace.resolve("src"));
    Files.writeString(workspace.resolve("src/app.py"), "print('hi')\n");
    HttpResponse<byte[]> archive =
        SandboxHarness.http()
            .send(
                request("GET", "/workspace/archive", RUN).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
    assertThat(archive.statusCode()).isEqualTo(200);

    Files.delete(workspace.resolve("src/app.py"));
    Files.writeString(workspace.resolve("stray.txt"), "not in the archive");
    HttpResponse<String> restored =
        SandboxHarness.http()
            .send(
                request("PUT", "/workspace/archive", RUN)
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(archive.body()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(restored.statusCode()).isEqualTo(200);
    assertThat(workspace.resolve("src/app.py")).hasContent("print('hi')");
    assertThat(workspace.resolve("stray.txt")).doesNotExist();
  }

  @Test
  void anArchiveEntryOutsideTheWorkspaceIsRefused() throws Exception {
    send("POST", "/bind", POOL, bind());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry("../escaped.txt"));
      zip.write("x".getBytes());
      zip.closeEntry();
    }
    HttpResponse<String> restored =
        SandboxHarness.http()
            .send(
                request("PUT", "/workspace/archive", RUN)
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes.toByteArray()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(restored.statusCode()).isEqualTo(400);
    assertThat(temp.resolve("escaped.txt")).doesNotExist();
  }

  private static String bind() {
    return "{\"token\":\"" + RUN + "\",\"env\":{\"GREETING\":\"hello from the run\"}}";
  }

  private HttpResponse<String> send(String method, String path, String token, String body)
      throws Exception {
    return SandboxHarness.http()
        .send(
            request(method, path, token)
                .method(
                    method,
                    body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String method, String path, String token) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .header("Authorization", "Bearer " + token);
  }
}
