package dev.threadline.api.containers;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static dev.threadline.api.support.ErrorAssertions.assertErrorShape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.auth.ApiKeys;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code /api/v1/containers} over real HTTP against the CRUD mock. The tests play the operator
 * (status, access Secret) and the container's file API (a {@link FakeRunner} on loopback).
 */
class ContainersMockServerTest {
  private static final String TOKEN = "test-access-token";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static SharedApiServer shared;
  private static ApiClient api;
  private static FakeRunner runner;

  @BeforeAll
  static void start() throws IOException {
    shared = SharedApiServer.get();
    api = shared.api();
    runner = new FakeRunner(TOKEN);
  }

  @AfterAll
  static void stop() {
    runner.close();
  }

  @Test
  void containerIsCreatedListedReadPatchedAndDeleted() {
    TestUser alice = shared.newUser("alice");

    ApiClient.Response created =
        api.post(
            "/api/v1/containers",
            alice.key(),
            "{\"model\": \"gpt-4.1-mini\", \"reasoning\": \"low\", \"timeout\": 60000}");

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode container = created.json().get("container");
    String id = container.get("id").asString();
    assertThat(id).matches("ctr_[a-z0-9]{20}");
    assertThat(created.header("Location")).isEqualTo("/api/v1/containers/" + id);
    assertThat(container.get("userId").asString()).isEqualTo(alice.userId());
    assertThat(container.get("status").asString()).isEqualTo("pending");
    assertThat(container.get("model").asString()).isEqualTo("gpt-4.1-mini");
    assertThat(container.get("reasoning").asString()).isEqualTo("low");
    assertThat(container.get("persistent").asBoolean()).isFalse();
    assertThat(container.get("timeoutMs").asLong()).isEqualTo(60000);
    assertThat(container.get("environmentId").isNull()).isTrue();
    assertThat(container.get("mcpServers")).isEmpty();
    assertThat(container.get("port").isNull()).isTrue();
    assertThat(container.get("start").isNull()).isTrue();
    Instant createdAt = Instant.parse(container.get("createdAt").asString());
    assertThat(container.get("lastActivityAt").asString())
        .isEqualTo(container.get("createdAt").asString());
    assertThat(Instant.parse(container.get("expiresAt").asString()))
        .isEqualTo(createdAt.plusSeconds(60));
    Container stored = stored(alice, id);
    assertThat(stored.getSpec().getTimeoutMs()).isEqualTo(60000L);

    ApiClient.Response persistent =
        api.post("/api/v1/containers", alice.key(), "{\"persistContainer\": true}");
    assertThat(persistent.json().get("container").get("persistent").asBoolean()).isTrue();
    assertThat(persistent.json().get("container").get("timeoutMs").asLong()).isEqualTo(300000);
    assertThat(persistent.json().get("container").get("expiresAt").isNull()).isTrue();
    ApiClient.Response defaults = api.send("POST", "/api/v1/containers", alice.key(), null, null);
    assertThat(defaults.status()).isEqualTo(201);

    ApiClient.Response list = api.get("/api/v1/containers?limit=2", alice.key());
    assertThat(list.text("object")).isEqualTo("list");
    assertThat(list.json().get("total_count").asInt()).isEqualTo(3);
    assertThat(list.json().get("has_more").asBoolean()).isTrue();
    ApiClient.Response rest = api.get("/api/v1/containers?limit=2&offset=2", alice.key());
    assertThat(rest.json().get("has_more").asBoolean()).isFalse();
    List<String> ids = new java.util.ArrayList<>();
    list.json().get("data").forEach(item -> ids.add(item.get("id").asString()));
    rest.json().get("data").forEach(item -> ids.add(item.get("id").asString()));
    assertThat(ids)
        .hasSize(3)
        .contains(id, persistent.json().get("container").get("id").asString());

    ApiClient.Response patched =
        api.patch("/api/v1/containers/" + id, alice.key(), "{\"reasoning\": \"high\"}");
    assertThat(patched.status()).isEqualTo(200);
    assertThat(patched.json().get("container").get("reasoning").asString()).isEqualTo("high");
    assertThat(patched.json().get("container").get("model").asString()).isEqualTo("gpt-4.1-mini");
    assertThat(
            api.get("/api/v1/containers/" + id, alice.key())
                .json()
                .get("container")
                .get("reasoning")
                .asString())
        .isEqualTo("high");

    ApiClient.Response deleted = api.delete("/api/v1/containers/" + id, alice.key());
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.body()).isEqualTo("{\"success\":true}");
    assertError(
        api.get("/api/v1/containers/" + id, alice.key()),
        404,
        "Not Found",
        "Container " + id + " not found");
    assertError(
        api.delete("/api/v1/containers/" + id, alice.key()),
        404,
        "Not Found",
        "Container " + id + " not found");
  }

  @Test
  void badBodiesAre400sNamingTheField() {
    TestUser carol = shared.newUser("carol");

    assertError(
        api.post("/api/v1/containers", carol.key(), "{\"timeout\": 10}"),
        400,
        "Bad Request",
        "timeout must be between 1000 and 604800000 milliseconds");
    assertErrorShape(
        api.post("/api/v1/containers", carol.key(), "{\"timeout\": \"soon\"}"), 400, "Bad Request");
    assertError(
        api.post("/api/v1/containers", carol.key(), "{\"reasoning\": \"extreme\"}"),
        400,
        "Bad Request",
        "reasoning must be one of minimal, low, medium, high");
    assertError(
        api.post(
            "/api/v1/containers",
            carol.key(),
            "{\"mcpServers\": [{\"type\": \"ftp\", \"name\": \"x\"}]}"),
        400,
        "Bad Request",
        "mcpServers[0].type must be stdio or http");
    assertError(
        api.post(
            "/api/v1/containers",
            carol.key(),
            "{\"mcpServers\": [{\"type\": \"http\", \"name\": \"x\", \"url\": \"ftp://a\"}]}"),
        400,
        "Bad Request",
        "mcpServers[0].url must be an http:// or https:// URL");
    assertError(
        api.post("/api/v1/containers", carol.key(), "{\"environmentId\": \"thread_1\"}"),
        400,
        "Bad Request",
        "environmentId must be an environment id (env_*)");
    assertError(
        api.post("/api/v1/containers", carol.key(), "{\"environmentId\": \"env_missing\"}"),
        404,
        "Not Found",
        "Environment env_missing not found");

    String id =
        api.post("/api/v1/containers", carol.key(), "{}")
            .json()
            .get("container")
            .get("id")
            .asString();
    assertError(
        api.patch("/api/v1/containers/" + id, carol.key(), "{}"),
        400,
        "Bad Request",
        "Request body must set model or reasoning");
    assertError(
        api.patch("/api/v1/containers/" + id, carol.key(), "{\"model\": \" \"}"),
        400,
        "Bad Request",
        "model is required");
    assertError(
        api.get("/api/v1/containers/" + id + "/logs?lines=0", carol.key()),
        400,
        "Bad Request",
        "lines must be a whole number between 1 and 10000");
    assertError(
        api.get("/api/v1/containers?limit=101", carol.key()),
        400,
        "Bad Request",
        "limit must be between 1 and 100");
    // File operations wait for a running container.
    assertError(
        api.get("/api/v1/containers/" + id + "/files", carol.key()),
        409,
        "Conflict",
        "Container " + id + " is not running (status: pending)");
  }

  @Test
  void filesGoThroughTheContainersFileApi() throws Exception {
    TestUser dana = shared.newUser("dana");
    String id = createRunning(dana, "{\"timeout\": 20000}");
    byte[] binary = new byte[4096];
    new Random(42).nextBytes(binary);

    HttpResponse<String> uploaded = upload(dana, id, "data/blob.bin", binary);
    assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
    assertThat(uploaded.body()).contains("\"created\":true").contains("\"size\":4096");
    assertThat(runner.files.get("data/blob.bin")).isEqualTo(binary);
    assertThat(upload(dana, id, "data/blob.bin", binary).statusCode()).isEqualTo(200);

    ApiClient.Response listed = api.get("/api/v1/containers/" + id + "/files", dana.key());
    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.json().get("entries").get(0).get("path").asString())
        .isEqualTo("data/blob.bin");

    HttpResponse<byte[]> download =
        HTTP.send(
            request(dana, "/api/v1/containers/" + id + "/files/download?path=data/blob.bin")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(download.statusCode()).isEqualTo(200);
    assertThat(download.body()).isEqualTo(binary);
    assertThat(download.headers().firstValue("Content-Type")).contains("application/octet-stream");
    assertThat(download.headers().firstValue("Content-Disposition").orElseThrow())
        .contains("attachment")
        .contains("blob.bin");

    assertError(
        api.get("/api/v1/containers/" + id + "/files/download?path=nope.txt", dana.key()),
        404,
        "Not Found",
        "'nope.txt' does not exist");
    assertError(
        api.get("/api/v1/containers/" + id + "/files/download?path=..%2Fetc%2Fpasswd", dana.key()),
        400,
        "Bad Request",
        "'../etc/passwd' is outside the workspace; use a path relative to the workspace");
    assertError(
        api.get("/api/v1/containers/" + id + "/files/download", dana.key()),
        400,
        "Bad Request",
        "path is required");

    ApiClient.Response deleted =
        api.delete("/api/v1/containers/" + id + "/files?path=data/blob.bin", dana.key());
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.json().get("deleted").asBoolean()).isTrue();
    assertThat(runner.files).doesNotContainKey("data/blob.bin");

    // What curl --data-binary sends: the body is the file, not a form, and cannot pick the path.
    String formLike = "path=elsewhere.txt&x=%ff";
    ApiClient.Response formUpload =
        api.raw(
            "PUT",
            "/api/v1/containers/" + id + "/files?path=data/form.txt",
            dana.key(),
            "application/x-www-form-urlencoded",
            formLike);
    assertThat(formUpload.status()).as(formUpload.body()).isEqualTo(201);
    assertThat(runner.files.get("data/form.txt"))
        .isEqualTo(formLike.getBytes(StandardCharsets.UTF_8));
    assertThat(runner.files).doesNotContainKey("elsewhere.txt");

    HttpResponse<String> tooLarge = upload(dana, id, "big.bin", new byte[10 * 1024 * 1024 + 1]);
    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(tooLarge.body()).contains("Uploads may have at most 10485760 bytes");
    HttpResponse<String> tooLargeInChunks =
        HTTP.send(
            request(dana, "/api/v1/containers/" + id + "/files?path=chunked.bin")
                .PUT(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(new byte[10 * 1024 * 1024 + 1])))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(tooLargeInChunks.statusCode()).as(tooLargeInChunks.body()).isEqualTo(413);
    assertThat(tooLargeInChunks.body()).contains("Uploads may have at most 10485760 bytes");
    assertThat(runner.files).doesNotContainKey("chunked.bin");

    ApiClient.Response health = api.get("/api/v1/containers/" + id + "/health", dana.key());
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().get("healthy").asBoolean()).isTrue();
    assertThat(health.text("status")).isEqualTo("running");
    assertThat(health.json().get("port").asInt()).isEqualTo(runner.port());

    // Use moves lastActivityAt (written at most every timeout/20, here every second).
    String before = stored(dana, id).getStatus().getLastActivityAt();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> {
          api.get("/api/v1/containers/" + id + "/health", dana.key());
          String now = stored(dana, id).getStatus().getLastActivityAt();
          return now != null && !now.equals(before);
        });
    assertThat(stored(dana, id).getStatus().getPhase())
        .as("the operator's fields are kept")
        .isEqualTo("running");
  }

  @Test
  void aReadOnlyKeyUsesAContainerWithoutMovingItsExpiry() {
    TestUser erin = shared.newUser("erin");
    String id = createRunning(erin, "{\"timeout\": 20000}");
    String reader = shared.addKey(erin.userId(), ApiKeys.newKey(), Map.of(ApiKeys.SCOPES, "read"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/v1/threads", reader).status() == 200);
    String before = stored(erin, id).getStatus().getLastActivityAt();

    // Longer than the 1 s between recorded uses: a key that may write would have moved it.
    await()
        .during(Duration.ofMillis(2500))
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> {
          assertThat(api.get("/api/v1/containers/" + id + "/health", reader).status())
              .isEqualTo(200);
          assertThat(api.get("/api/v1/containers/" + id + "/files", reader).status())
              .isEqualTo(200);
          return before.equals(stored(erin, id).getStatus().getLastActivityAt());
        });

    api.get("/api/v1/containers/" + id + "/health", erin.key());
    assertThat(stored(erin, id).getStatus().getLastActivityAt()).isNotEqualTo(before);
  }

  /** The file API gets the first bytes of an upload while the client is still sending the rest. */
  @Test
  void uploadsAreStreamedNotBufferedWhole() throws Exception {
    TestUser fern = shared.newUser("fern");
    String id = createRunning(fern, "{}");
    PipedOutputStream client = new PipedOutputStream();
    PipedInputStream sent = new PipedInputStream(client, 1024 * 1024);
    long before = runner.received.get();
    var answer =
        HTTP.sendAsync(
            request(fern, "/api/v1/containers/" + id + "/files?path=stream.bin")
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> sent))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    byte[] half = new byte[2 * 1024 * 1024];
    client.write(half);
    client.flush();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> runner.received.get() - before >= 1024 * 1024);
    client.write(half);
    client.close();

    assertThat(answer.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
    assertThat(runner.files.get("stream.bin")).hasSize(4 * 1024 * 1024);
  }

  @Test
  void logsComeFromThePodAndMcpServersKeepTheirTokensInASecret() {
    TestUser erin = shared.newUser("erin");
    String id =
        api.post("/api/v1/containers", erin.key(), "{}")
            .json()
            .get("container")
            .get("id")
            .asString();
    String name = id.replace('_', '-');
    playOperator(erin, id);
    shared
        .kubernetes()
        .expect()
        .get()
        .withPath(
            "/api/v1/namespaces/"
                + erin.namespace()
                + "/pods/"
                + name
                + "/log?pretty=false&container=runner&tailLines=2")
        .andReturn(200, "INFO serving\nINFO PUT /files 201\n")
        .always();

    ApiClient.Response logs = api.get("/api/v1/containers/" + id + "/logs?lines=2", erin.key());
    assertThat(logs.status()).as(logs.body()).isEqualTo(200);
    assertThat(logs.json().get("logs").toString())
        .isEqualTo("[\"INFO serving\",\"INFO PUT /files 201\"]");

    ApiClient.Response added =
        api.post(
            "/api/v1/containers/" + id + "/mcp-servers",
            erin.key(),
            "{\"type\": \"http\", \"name\": \"search\", \"url\": \"https://mcp.example.com/sse\","
                + " \"bearerToken\": \"tok-123\"}");
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    JsonNode server = added.json().get("container").get("mcpServers").get(0);
    assertThat(server.get("name").asString()).isEqualTo("search");
    assertThat(server.get("bearerToken").asString()).isEqualTo("****");
    assertThat(server.get("startupTimeoutSec").asInt()).isEqualTo(30);
    assertThat(server.get("toolTimeoutSec").asInt()).isEqualTo(60);
    assertThat(added.body()).doesNotContain("tok-123");
    Secret values =
        shared.client().secrets().inNamespace(erin.namespace()).withName(name + "-values").get();
    assertThat(
            new String(
                Base64.getDecoder().decode(values.getData().get("mcp.search.bearerToken")),
                StandardCharsets.UTF_8))
        .isEqualTo("tok-123");
    assertThat(
            stored(erin, id)
                .getSpec()
                .getMcpServers()
                .getFirst()
                .getBearerTokenFrom()
                .getSecretKeyRef()
                .getName())
        .isEqualTo(name + "-values");

    assertError(
        api.post(
            "/api/v1/containers/" + id + "/mcp-servers",
            erin.key(),
            "{\"type\": \"stdio\", \"name\": \"search\", \"command\": \"npx\"}"),
        409,
        "Conflict",
        "MCP server search already exists on container " + id);
    assertThat(
            api.post(
                    "/api/v1/containers/" + id + "/mcp-servers",
                    erin.key(),
                    "{\"type\": \"stdio\", \"name\": \"files\", \"command\": \"npx\", \"args\":"
                        + " [\"-y\", \"fs\"], \"toolTimeoutSec\": 90}")
                .status())
        .isEqualTo(201);

    ApiClient.Response removed =
        api.delete("/api/v1/containers/" + id + "/mcp-servers/search", erin.key());
    assertThat(removed.status()).isEqualTo(200);
    assertThat(removed.json().get("container").get("mcpServers").findValuesAsString("name"))
        .containsExactly("files");
    assertThat(
            shared
                .client()
                .secrets()
                .inNamespace(erin.namespace())
                .withName(name + "-values")
                .get()
                .getData())
        .isEmpty();
    assertError(
        api.delete("/api/v1/containers/" + id + "/mcp-servers/search", erin.key()),
        404,
        "Not Found",
        "MCP server search not found");
    assertThat(
            api.get("/api/v1/containers/" + id, erin.key())
                .json()
                .get("container")
                .get("mcpServers")
                .get(0)
                .get("toolTimeoutSec")
                .asInt())
        .isEqualTo(90);
  }

  @Test
  void anotherUsersContainerIsNotFoundForEveryOperation() {
    TestUser owner = shared.newUser("owner");
    TestUser other = shared.newUser("other");
    String id =
        api.post("/api/v1/containers", owner.key(), "{}")
            .json()
            .get("container")
            .get("id")
            .asString();
    playOperator(owner, id);
    String message = "Container " + id + " not found";
    String base = "/api/v1/containers/" + id;

    assertThat(api.get("/api/v1/containers", other.key()).json().get("total_count").asInt())
        .isZero();
    assertError(api.get(base, other.key()), 404, "Not Found", message);
    assertError(api.patch(base, other.key(), "{\"model\": \"m\"}"), 404, "Not Found", message);
    assertError(
        api.post(
            base + "/mcp-servers",
            other.key(),
            "{\"type\": \"stdio\", \"name\": \"a\", \"command\": \"b\"}"),
        404,
        "Not Found",
        message);
    assertError(api.delete(base + "/mcp-servers/a", other.key()), 404, "Not Found", message);
    assertError(api.get(base + "/files", other.key()), 404, "Not Found", message);
    assertError(api.get(base + "/files/download?path=a", other.key()), 404, "Not Found", message);
    assertError(
        api.send("PUT", base + "/files?path=a", other.key(), "x", "application/octet-stream"),
        404,
        "Not Found",
        message);
    assertError(api.delete(base + "/files?path=a", other.key()), 404, "Not Found", message);
    assertError(api.get(base + "/logs", other.key()), 404, "Not Found", message);
    assertError(api.get(base + "/health", other.key()), 404, "Not Found", message);
    assertError(api.delete(base, other.key()), 404, "Not Found", message);
    assertError(
        api.get("/api/v1/containers/ctr_nothere", owner.key()),
        404,
        "Not Found",
        "Container ctr_nothere not found");
    assertThat(api.get(base, owner.key()).status()).isEqualTo(200);
    assertThat(api.get("/api/v1/containers", null).status()).isEqualTo(401);
  }

  /** A container created with {@code body} and brought to running as the operator would. */
  private static String createRunning(TestUser user, String body) {
    String id =
        api.post("/api/v1/containers", user.key(), body)
            .json()
            .get("container")
            .get("id")
            .asString();
    playOperator(user, id);
    return id;
  }

  /**
   * What the operator does for a running container: status with the file API's address, the access
   * Secret.
   */
  private static void playOperator(TestUser user, String id) {
    String name = id.replace('_', '-');
    shared
        .client()
        .secrets()
        .inNamespace(user.namespace())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name + "-access")
                .endMetadata()
                .addToData(
                    "token",
                    Base64.getEncoder().encodeToString(TOKEN.getBytes(StandardCharsets.UTF_8)))
                .build())
        .create();
    shared
        .client()
        .resources(Container.class)
        .inNamespace(user.namespace())
        .withName(name)
        .editStatus(container -> {
          var status = new dev.threadline.crds.container.ContainerStatus();
          status.setPhase("running");
          status.setPod(name);
          status.setPodIP("127.0.0.1");
          status.setPort(runner.port());
          status.setStart("claimed");
          status.setLastActivityAt(container.getMetadata().getCreationTimestamp());
          container.setStatus(status);
          return container;
        });
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() ->
            "running"
                .equals(
                    api.get("/api/v1/containers/" + id, user.key())
                        .json()
                        .get("container")
                        .get("status")
                        .asString()));
    // How its sandbox came (warm pool or cold) shows as the operator recorded it.
    assertThat(
            api.get("/api/v1/containers/" + id, user.key())
                .json()
                .get("container")
                .get("start")
                .asString())
        .isEqualTo("claimed");
  }

  private static Container stored(TestUser user, String id) {
    return shared
        .client()
        .resources(Container.class)
        .inNamespace(user.namespace())
        .withName(id.replace('_', '-'))
        .get();
  }

  private static HttpResponse<String> upload(TestUser user, String id, String path, byte[] content)
      throws Exception {
    return HTTP.send(
        request(user, "/api/v1/containers/" + id + "/files?path=" + path)
            .header("Content-Type", "application/octet-stream")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(content))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder request(TestUser user, String path) {
    return HttpRequest.newBuilder(URI.create(shared.api().baseUrl() + path))
        .header("Authorization", "Bearer " + user.key());
  }
}
