package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The container cloud API end to end in local mode: the operator's container Pod runs the real
 * {@code runner serve} as a host process on its own port, and the REST API reaches it there.
 */
class ContainersE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START = Duration.ofSeconds(60);
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void containerServesItsWorkspaceUntilDeleted() throws IOException {
    HttpResponse<String> created =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/api/v1/containers",
            "{\"persistContainer\": true, \"model\": \"scripted\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = json(created).path("container").path("id").asText();
    String base = "/api/v1/containers/" + id;

    ContainerFiles.awaitHealthy(fixture, LocalModeFixture.ALICE_KEY, base, START);
    JsonNode running = json(fixture.get(LocalModeFixture.ALICE_KEY, base)).path("container");
    assertThat(running.path("status").asText()).isEqualTo("running");
    int port = running.path("port").asInt();
    assertThat(port).isBetween(8100, 8180);

    byte[] binary = new byte[256 * 1024];
    new Random(11).nextBytes(binary);
    binary[0] = 0;
    binary[1] = (byte) 0xff;
    HttpResponse<String> uploaded =
        ContainerFiles.upload(
            fixture,
            LocalModeFixture.ALICE_KEY,
            base,
            "out/blob.bin",
            HttpRequest.BodyPublishers.ofByteArray(binary));
    assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);

    JsonNode listed = json(fixture.get(LocalModeFixture.ALICE_KEY, base + "/files?path=out"));
    assertThat(listed.path("entries")).hasSize(1);
    assertThat(listed.path("entries").get(0).path("path").asText()).isEqualTo("out/blob.bin");
    assertThat(listed.path("entries").get(0).path("size").asLong()).isEqualTo(binary.length);

    HttpResponse<byte[]> download =
        fixture.send(
            fixture
                .request(LocalModeFixture.ALICE_KEY, base + "/files/download?path=out/blob.bin")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(download.statusCode()).isEqualTo(200);
    assertThat(download.body()).isEqualTo(binary);
    assertThat(download.headers().firstValue("Content-Disposition").orElseThrow())
        .contains("blob.bin");

    HttpResponse<String> escape =
        fixture.get(LocalModeFixture.ALICE_KEY, base + "/files/download?path=..%2F..%2Fkubeconfig");
    assertThat(escape.statusCode()).as(escape.body()).isEqualTo(400);
    assertThat(fixture.get(LocalModeFixture.BOB_KEY, base + "/files?path=out").statusCode())
        .isEqualTo(404);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() ->
            json(fixture.get(LocalModeFixture.ALICE_KEY, base + "/logs?lines=50"))
                .path("logs")
                .toString()
                .contains("PUT /files?path=out"));

    HttpResponse<String> deleted = fixture.delete(LocalModeFixture.ALICE_KEY, base);
    assertThat(deleted.body()).isEqualTo("{\"success\":true}");
    assertThat(fixture.get(LocalModeFixture.ALICE_KEY, base).statusCode()).isEqualTo(404);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() ->
            fixture
                    .local()
                    .client()
                    .pods()
                    .inNamespace("alice")
                    .withName(id.replace('_', '-'))
                    .get()
                == null);
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body());
  }
}
