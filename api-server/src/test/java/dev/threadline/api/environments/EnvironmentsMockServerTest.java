package dev.threadline.api.environments;

import static dev.threadline.api.environments.EnvironmentTestSupport.createEnvironment;
import static dev.threadline.api.environments.EnvironmentTestSupport.decode;
import static dev.threadline.api.environments.EnvironmentTestSupport.ids;
import static dev.threadline.api.support.ErrorAssertions.assertError;
import static dev.threadline.api.support.ErrorAssertions.assertErrorShape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.environment.BuildPolicy;
import dev.threadline.crds.environment.Environment;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The environment endpoints over real HTTP against fabric8's CRUD mock (no operator: tests play
 * it).
 */
class EnvironmentsMockServerTest {
  static SharedApiServer shared;
  static ApiClient api;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void createReturnsTheContractsObjectAndKeepsValuesOutOfTheSpec() {
    TestUser alice = shared.newUser("alice");

    ApiClient.Response created =
        api.post(
            "/environments",
            alice.key(),
            """
            {"name": "Data work", "description": "pandas and friends",
             "runtimes": {"python": "3.12", "nodejs": "20"},
             "packages": {"system": ["git"], "python": ["pandas", "requests==2.32.3"], "node": []},
             "dockerfileExtensions": "RUN echo hello",
             "environmentVariables": [{"key": "DATABASE_URL", "value": "postgres://u:p@db/x"}],
             "secrets": [{"name": "GITHUB_TOKEN", "description": "repo access", "value": "ghp_secret"}],
             "setupScripts": [{"name": "warm cache", "script": "echo warm"}],
             "documentation": [{"title": "Runbook", "url": "https://example.com/runbook"},
                               {"title": "Notes", "content": "Use UTC."}],
             "mcpServers": [{"type": "http", "name": "search", "url": "https://mcp.example.com/sse", "bearerToken": "tok-123"},
                            {"type": "stdio", "name": "files", "command": "mcp-files", "args": ["--root", "/workspace"]}]}
            """);

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode environment = created.json().get("environment");
    String id = environment.get("id").asString();
    assertThat(id).matches("env_[a-z0-9]{20}");
    assertThat(created.header("Location")).isEqualTo("/environments/" + id);
    List<String> fields = new ArrayList<>();
    environment.propertyNames().forEach(fields::add);
    // The contract's fields, in its order; then webhooks, beyond the contract.
    assertThat(fields)
        .containsExactly(
            "id",
            "userId",
            "name",
            "description",
            "baseImage",
            "dockerfileExtensions",
            "runtimes",
            "packages",
            "environmentVariables",
            "secrets",
            "setupScripts",
            "mcpServers",
            "documentation",
            "internetAccess",
            "buildStatus",
            "buildHash",
            "buildError",
            "buildLogs",
            "lastBuildAt",
            "imageTag",
            "isDefault",
            "isActive",
            "createdAt",
            "updatedAt",
            "webhooks",
            "warmPool");
    assertThat(environment.get("webhooks")).isEmpty();
    assertThat(environment.get("userId").asString()).isEqualTo(alice.userId());
    assertThat(environment.get("name").asString()).isEqualTo("Data work");
    assertThat(environment.get("baseImage").isNull()).isTrue();
    assertThat(environment.get("buildStatus").asString()).isEqualTo("pending");
    assertThat(environment.get("isDefault").asBoolean()).isFalse();
    assertThat(environment.get("isActive").asBoolean()).isTrue();
    assertThat(environment.get("internetAccess").asBoolean()).isTrue();
    assertThat(environment.get("createdAt").asString()).endsWith("Z");
    assertThat(environment.get("runtimes").toString())
        .isEqualTo("{\"nodejs\":\"20\",\"python\":\"3.12\"}");
    assertThat(environment.get("packages").get("python").toString())
        .isEqualTo("[\"pandas\",\"requests==2.32.3\"]");
    assertThat(environment.get("environmentVariables").toString())
        .isEqualTo("[{\"key\":\"DATABASE_URL\",\"value\":\"****\"}]");
    assertThat(environment.get("secrets").toString())
        .isEqualTo(
            "[{\"name\":\"GITHUB_TOKEN\",\"description\":\"repo access\",\"value\":\"****\"}]");
    assertThat(environment.get("mcpServers").get(0).toString())
        .isEqualTo(
            "{\"type\":\"http\",\"name\":\"search\",\"url\":\"https://mcp.example.com/sse\",\"bearerToken\":\"****\","
                + "\"enabled\":true,\"startupTimeoutSec\":30,\"toolTimeoutSec\":60}");
    assertThat(environment.get("mcpServers").get(1).get("args").toString())
        .isEqualTo("[\"--root\",\"/workspace\"]");
    assertThat(environment.get("documentation").get(0).toString())
        .isEqualTo("{\"title\":\"Runbook\",\"url\":\"https://example.com/runbook\"}");
    assertThat(created.body()).doesNotContain("postgres://", "ghp_secret", "tok-123");

    String name = id.replace('_', '-');
    Environment stored =
        shared
            .client()
            .resources(Environment.class)
            .inNamespace(alice.namespace())
            .withName(name)
            .get();
    String specJson = shared.client().getKubernetesSerialization().asJson(stored.getSpec());
    assertThat(specJson).doesNotContain("postgres://", "ghp_secret", "tok-123");
    // Pending until POST .../build, as the contract has it: the operator builds it only on request.
    assertThat(stored.getSpec().getBuildPolicy()).isEqualTo(BuildPolicy.MANUAL);
    assertThat(
            stored.getSpec().getMcpServers().get(0).getBearerTokenFrom().getSecretKeyRef().getKey())
        .isEqualTo("mcp.search.bearerToken");
    Secret values =
        shared.client().secrets().inNamespace(alice.namespace()).withName(name + "-vars").get();
    assertThat(decode(values))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "env.DATABASE_URL",
                "postgres://u:p@db/x",
                "secret.GITHUB_TOKEN",
                "ghp_secret",
                "mcp.search.bearerToken",
                "tok-123"));
    assertThat(values.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(stored.getMetadata().getUid()));

    // Sending back what was read (masked) keeps the stored values; a new value replaces one.
    ApiClient.Response patched =
        api.patch(
            "/environments/" + id,
            alice.key(),
            """
            {"name": "Data science", "environmentVariables": [{"key": "DATABASE_URL", "value": "****"},
                                                              {"key": "REGION", "value": "eu"}],
             "secrets": [], "mcpServers": [{"type": "http", "name": "search", "url": "https://mcp.example.com/sse",
                                            "bearerToken": "****"}]}
            """);
    assertThat(patched.status()).as(patched.body()).isEqualTo(200);
    assertThat(patched.json().get("environment").get("name").asString()).isEqualTo("Data science");
    assertThat(
            decode(
                shared
                    .client()
                    .secrets()
                    .inNamespace(alice.namespace())
                    .withName(name + "-vars")
                    .get()))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "env.DATABASE_URL",
                "postgres://u:p@db/x",
                "env.REGION",
                "eu",
                "mcp.search.bearerToken",
                "tok-123"));
    assertThat(api.get("/environments/" + id, alice.key()).json().get("environment"))
        .isEqualTo(patched.json().get("environment"));
  }

  @Test
  void invalidFieldsAreA400NamingTheField() {
    TestUser bea = shared.newUser("bea");

    assertError(api.post("/environments", bea.key(), "{}"), 400, "Bad Request", "name is required");
    assertErrorShape(
        api.post(
            "/environments", bea.key(), "{\"name\": \"x\", \"runtimes\": {\"python\": \"2.7\"}}"),
        400,
        "Bad Request");
    assertThat(
            api.post(
                    "/environments",
                    bea.key(),
                    "{\"name\": \"x\", \"runtimes\": {\"cobol\": \"85\"}}")
                .text("message"))
        .startsWith("runtimes.cobol: Unknown runtime");
    assertError(
        api.post(
            "/environments", bea.key(), "{\"name\": \"x\", \"baseImage\": \"python:3.12-alpine\"}"),
        400,
        "Bad Request",
        "baseImage python:3.12-alpine is Alpine/musl-based; agents need a glibc Linux image such as"
            + " debian:bookworm-slim, ubuntu:24.04 or python:3.12-slim");
    assertThat(
            api.post(
                    "/environments",
                    bea.key(),
                    "{\"name\": \"x\", \"packages\": {\"python\": [\"ok\", \"x; rm -rf /\"]}}")
                .text("message"))
        .startsWith("packages.python[1]: ");
    assertThat(
            api.post(
                    "/environments",
                    bea.key(),
                    "{\"name\": \"x\", \"dockerfileExtensions\": \"FROBNICATE\"}")
                .text("message"))
        .startsWith("dockerfileExtensions is not valid: line 1:");
    assertError(
        api.post(
            "/environments",
            bea.key(),
            "{\"name\": \"x\", \"mcpServers\": [{\"type\": \"stdio\", \"name\": \"a\"}]}"),
        400,
        "Bad Request",
        "mcpServers[0].command is required");
    assertError(
        api.post(
            "/environments",
            bea.key(),
            "{\"name\": \"x\", \"mcpServers\": [{\"type\": \"http\", \"name\": \"a\", \"url\":"
                + " \"ftp://x\"}]}"),
        400,
        "Bad Request",
        "mcpServers[0].url must be an http:// or https:// URL with a host");
    assertError(
        api.post(
            "/environments",
            bea.key(),
            "{\"name\": \"x\", \"mcpServers\": [{\"type\": \"stdio\", \"name\": \"a\", \"command\":"
                + " \"c\"}, {\"type\": \"stdio\", \"name\": \"a\", \"command\": \"c\"}]}"),
        400,
        "Bad Request",
        "mcpServers[1].name \"a\" is given twice");
    assertError(
        api.post(
            "/environments",
            bea.key(),
            "{\"name\": \"x\", \"mcpServers\": [" + "{\"type\": \"grpc\", \"name\": \"a\"}]}"),
        400,
        "Bad Request",
        "mcpServers[0].type must be stdio or http");
    assertError(
        api.post(
            "/environments",
            bea.key(),
            "{\"name\": \"x\", \"environmentVariables\": [{\"key\": \"1BAD\", \"value\": \"v\"}]}"),
        400,
        "Bad Request",
        "environmentVariables[0].key must be a variable name: letters, digits and '_', not starting"
            + " with a digit");
    assertError(
        api.post(
            "/environments",
            bea.key(),
            "{\"name\": \"x\", \"environmentVariables\": [{\"key\": \"A\"}]}"),
        400,
        "Bad Request",
        "environmentVariables[0].value is required");
    assertError(
        api.post(
            "/environments",
            bea.key(),
            "{\"name\": \"x\", \"documentation\": [{\"title\": \"t\"}]}"),
        400,
        "Bad Request",
        "documentation[0] needs either content or url (not both)");
    assertThat(api.get("/environments?isActive=false", bea.key()).json().get("total_count").asInt())
        .isZero();
    assertThat(api.get("/environments", bea.key()).json().get("total_count").asInt()).isZero();
  }

  @Test
  void listsAbbreviatedActiveEnvironmentsAndDeletesSoftlyOrHard() {
    TestUser carl = shared.newUser("carl");
    String first = createEnvironment(carl, "first");
    String second = createEnvironment(carl, "second");
    String third = createEnvironment(carl, "third");

    ApiClient.Response page = api.get("/environments?limit=2", carl.key());
    assertThat(page.json().get("total_count").asInt()).isEqualTo(3);
    assertThat(page.json().get("has_more").asBoolean()).isTrue();
    JsonNode item = page.json().get("data").get(0);
    List<String> fields = new ArrayList<>();
    item.propertyNames().forEach(fields::add);
    assertThat(fields).containsExactly("id", "name", "buildStatus", "isDefault", "createdAt");
    assertThat(api.get("/environments?limit=2&offset=2", carl.key()).json().get("data")).hasSize(1);
    assertError(
        api.get("/environments?limit=101", carl.key()),
        400,
        "Bad Request",
        "limit must be between 1 and 100");
    assertError(
        api.get("/environments?isActive=maybe", carl.key()),
        400,
        "Bad Request",
        "isActive must be true or false");

    ApiClient.Response soft = api.delete("/environments/" + first, carl.key());
    assertThat(soft.status()).isEqualTo(200);
    assertThat(soft.body()).isEqualTo("{\"success\":true,\"id\":\"" + first + "\",\"hard\":false}");
    assertThat(ids(api.get("/environments", carl.key()))).containsExactlyInAnyOrder(second, third);
    assertThat(ids(api.get("/environments?isActive=false", carl.key()))).containsExactly(first);
    assertThat(
            api.get("/environments/" + first, carl.key())
                .json()
                .get("environment")
                .get("isActive")
                .asBoolean())
        .isFalse();

    ApiClient.Response restored =
        api.patch("/environments/" + first, carl.key(), "{\"isActive\": true}");
    assertThat(restored.json().get("environment").get("isActive").asBoolean()).isTrue();
    assertThat(ids(api.get("/environments?isActive=false", carl.key()))).isEmpty();
    api.delete("/environments/" + first, carl.key());

    ApiClient.Response hard = api.delete("/environments/" + second + "?hard=true", carl.key());
    assertThat(hard.body()).isEqualTo("{\"success\":true,\"id\":\"" + second + "\",\"hard\":true}");
    assertError(
        api.get("/environments/" + second, carl.key()),
        404,
        "Not Found",
        "Environment " + second + " not found");
    assertThat(
            shared
                .client()
                .secrets()
                .inNamespace(carl.namespace())
                .withName(second.replace('_', '-') + "-vars")
                .get())
        .isNull();
    assertThat(ids(api.get("/environments?isDefault=false", carl.key()))).containsExactly(third);
  }

  @Test
  void aWarmPoolIsAskedForByItsSizeAndABadSizeIsA400NamingIt() {
    TestUser wendy = shared.newUser("wendy");

    ApiClient.Response created =
        api.post(
            "/environments", wendy.key(), "{\"name\": \"pooled\", \"warmPool\": {\"size\": 2}}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonNode pool = created.json().get("environment").get("warmPool");
    assertThat(pool.get("size").asInt()).isEqualTo(2);
    assertThat(pool.get("ready").asInt()).isZero();
    String id = created.json().get("environment").get("id").asString();
    Environment stored =
        shared
            .client()
            .resources(Environment.class)
            .inNamespace(wendy.namespace())
            .withName(id.replace('_', '-'))
            .get();
    assertThat(stored.getSpec().getWarmPool().getSize()).isEqualTo(2);

    for (String bad : List.of("-1", "51", "\"two\"", "1.5")) {
      assertError(
          api.patch("/environments/" + id, wendy.key(), "{\"warmPool\": {\"size\": " + bad + "}}"),
          400,
          "Bad Request",
          "warmPool.size must be a whole number from 0 to 50");
    }
    ApiClient.Response removed =
        api.patch("/environments/" + id, wendy.key(), "{\"warmPool\": {\"size\": 0}}");
    assertThat(removed.status()).as(removed.body()).isEqualTo(200);
    assertThat(removed.json().get("environment").get("warmPool").get("size").asInt()).isZero();
    assertThat(
            shared
                .client()
                .resources(Environment.class)
                .inNamespace(wendy.namespace())
                .withName(id.replace('_', '-'))
                .get()
                .getSpec()
                .getWarmPool())
        .isNull();
  }

  @Test
  void anotherUsersEnvironmentIsNotFound() {
    TestUser dana = shared.newUser("dana");
    TestUser eve = shared.newUser("eve");
    String id = createEnvironment(dana, "private");
    String notFound = "Environment " + id + " not found";

    for (String path :
        List.of("", "/runtimes", "/packages", "/dockerfile", "/build/status", "/build/logs")) {
      assertError(api.get("/environments/" + id + path, eve.key()), 404, "Not Found", notFound);
    }
    assertError(
        api.patch("/environments/" + id, eve.key(), "{\"name\": \"mine\"}"),
        404,
        "Not Found",
        notFound);
    assertError(
        api.post("/environments/" + id + "/build", eve.key(), null), 404, "Not Found", notFound);
    assertError(
        api.post("/environments/" + id + "/set-default", eve.key(), null),
        404,
        "Not Found",
        notFound);
    assertError(
        api.delete("/environments/" + id + "?hard=true", eve.key()), 404, "Not Found", notFound);
    assertThat(api.get("/environments/" + id, dana.key()).status()).isEqualTo(200);
  }
}
