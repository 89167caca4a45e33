package dev.threadline.api.environments;

import static dev.threadline.api.environments.EnvironmentTestSupport.createEnvironment;
import static dev.threadline.api.environments.EnvironmentTestSupport.specOf;
import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.core.environment.ImageDefaults;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Runtimes, packages and the Dockerfile of an environment, over HTTP. */
class EnvironmentImageEndpointsMockServerTest {
  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void availableRuntimesAreExactlyTheContractsTable() {
    TestUser fay = shared.newUser("fay");

    ApiClient.Response available = api.get("/environments/runtimes/available", fay.key());

    assertThat(available.status()).isEqualTo(200);
    assertThat(available.body())
        .isEqualTo(
            "{\"runtimes\":{"
                + "\"python\":[\"3.9\",\"3.10\",\"3.11\",\"3.12\",\"3.13\"],"
                + "\"nodejs\":[\"18\",\"20\",\"22\"],"
                + "\"go\":[\"1.20\",\"1.21\",\"1.22\",\"1.23\"],"
                + "\"php\":[\"8.1\",\"8.2\",\"8.3\"],"
                + "\"java\":[\"11\",\"17\",\"21\"],"
                + "\"ruby\":[\"3.1\",\"3.2\",\"3.3\"],"
                + "\"rust\":[\"stable\",\"1.75\",\"1.76\",\"1.77\"]}}");
  }

  @Test
  void puttingRuntimesReplacesThemAndTriggersARebuild() {
    TestUser gus = shared.newUser("gus");
    String id = createEnvironment(gus, "runtimes");
    assertThat(api.get("/environments/" + id + "/runtimes", gus.key()).body())
        .isEqualTo("{\"runtimes\":{}}");

    ApiClient.Response put =
        api.send(
            "PUT",
            "/environments/" + id + "/runtimes",
            gus.key(),
            "{\"runtimes\": {\"python\": \"3.13\", \"go\": \"1.23\"}}",
            "application/json");

    assertThat(put.status()).as(put.body()).isEqualTo(200);
    assertThat(put.json().get("environment").get("buildStatus").asString()).isEqualTo("building");
    assertThat(api.get("/environments/" + id + "/runtimes", gus.key()).body())
        .isEqualTo("{\"runtimes\":{\"go\":\"1.23\",\"python\":\"3.13\"}}");
    assertThat(specOf(gus, id).getBuildRequest().getId()).matches("[a-z0-9]{8}");
    assertError(
        api.send(
            "PUT",
            "/environments/" + id + "/runtimes",
            gus.key(),
            "{\"runtimes\": {\"python\": \"2.7\"}}",
            "application/json"),
        400,
        "Bad Request",
        "runtimes.python: Unsupported python version \"2.7\"; available: 3.9, 3.10, 3.11, 3.12,"
            + " 3.13");
    assertError(
        api.send("PUT", "/environments/" + id + "/runtimes", gus.key(), "{}", "application/json"),
        400,
        "Bad Request",
        "runtimes is required (an object of language to version)");
  }

  @Test
  void packagesAreInstalledAndRemovedWithTheContractsErrors() {
    TestUser hal = shared.newUser("hal");
    String id = createEnvironment(hal, "packages");
    String path = "/environments/" + id + "/packages";

    ApiClient.Response installed =
        api.post(
            path,
            hal.key(),
            "{\"type\": \"node\", \"packages\": [\"typescript@5.6.3\", \"@types/node\","
                + " \"typescript@5.6.3\"]}");
    assertThat(installed.status()).as(installed.body()).isEqualTo(200);
    assertThat(installed.json().get("installed").toString())
        .isEqualTo("[\"typescript@5.6.3\",\"@types/node\"]");
    assertThat(installed.json().get("environment").get("packages").get("node").toString())
        .isEqualTo("[\"typescript@5.6.3\",\"@types/node\"]");
    api.post(path, hal.key(), "{\"type\": \"python\", \"packages\": [\"requests==2.32.3\"]}");
    assertThat(api.get(path, hal.key()).body())
        .isEqualTo(
            "{\"packages\":{\"system\":[],"
                + "\"python\":[\"requests==2.32.3\"],\"node\":[\"typescript@5.6.3\",\"@types/node\"]}}");

    assertError(
        api.post(path, hal.key(), "{\"type\": \"gem\", \"packages\": [\"rails\"]}"),
        400,
        "Bad Request",
        "Invalid package type");
    assertError(
        api.post(path, hal.key(), "{\"packages\": [\"rails\"]}"),
        400,
        "Bad Request",
        "Invalid package type");
    assertError(
        api.post(path, hal.key(), "{\"type\": \"system\", \"packages\": []}"),
        400,
        "Bad Request",
        "packages must be a non-empty array");
    assertError(
        api.post(path, hal.key(), "{\"type\": \"system\", \"packages\": \"curl\"}"),
        400,
        "Bad Request",
        "packages must be a non-empty array");
    assertThat(
            api.post(path, hal.key(), "{\"type\": \"system\", \"packages\": [\"curl && reboot\"]}")
                .text("message"))
        .startsWith("packages[0]: ");

    ApiClient.Response removed = api.delete(path + "/node/@types/node", hal.key());
    assertThat(removed.status()).as(removed.body()).isEqualTo(200);
    assertThat(removed.json().get("success").asBoolean()).isTrue();
    assertThat(removed.json().get("environment").get("packages").get("node").toString())
        .isEqualTo("[\"typescript@5.6.3\"]");
    assertThat(
            api.delete(path + "/python/requests", hal.key())
                .json()
                .get("environment")
                .get("packages")
                .get("python")
                .toString())
        .isEqualTo("[]");
    assertError(
        api.delete(path + "/python/requests", hal.key()),
        404,
        "Not Found",
        "Package requests in the python packages of " + id + " not found");
    assertError(
        api.delete(path + "/gem/rails", hal.key()), 400, "Bad Request", "Invalid package type");
  }

  @Test
  void dockerfileIsRenderedValidatedAndReplaced() {
    TestUser ida = shared.newUser("ida");
    String id =
        api.post(
                "/environments",
                ida.key(),
                "{\"name\": \"docker\", \"runtimes\": {\"python\": \"3.12\"}, \"packages\":"
                    + " {\"system\": [\"git\"]}}")
            .json()
            .get("environment")
            .get("id")
            .asString();
    String path = "/environments/" + id + "/dockerfile";

    JsonNode dockerfile = api.get(path, ida.key()).json();
    assertThat(dockerfile.get("baseImage").isNull()).isTrue();
    assertThat(dockerfile.get("dockerfileExtensions").isNull()).isTrue();
    assertThat(dockerfile.get("effectiveDockerfile").asString())
        .startsWith("FROM " + ImageDefaults.BASE_IMAGE)
        .contains("git");

    ApiClient.Response validation =
        api.post(
            path + "/validate",
            ida.key(),
            "{\"dockerfileExtensions\": \"RUN echo one\\nFROBNICATE\\nUSER root\"}");
    assertThat(validation.status()).isEqualTo(200);
    assertThat(validation.json().get("valid").asBoolean()).isFalse();
    assertThat(validation.json().get("warnings").get(0).asString()).startsWith("line 2: ");
    assertThat(validation.json().get("effectiveDockerfile").asString()).contains("FROBNICATE");
    assertThat(api.get(path, ida.key()).json().get("effectiveDockerfile").asString())
        .doesNotContain("FROBNICATE");
    assertThat(
            api.post(path + "/validate", ida.key(), "{\"dockerfileExtensions\": \"ENV A=1\"}")
                .json()
                .get("valid")
                .asBoolean())
        .isTrue();

    ApiClient.Response put =
        api.send(
            "PUT",
            path,
            ida.key(),
            "{\"dockerfileExtensions\": \"ENV GREETING=hello\"}",
            "application/json");
    assertThat(put.status()).as(put.body()).isEqualTo(200);
    assertThat(put.json().get("dockerfileExtensions").asString()).isEqualTo("ENV GREETING=hello");
    String effective = put.json().get("effectiveDockerfile").asString();
    assertThat(effective.indexOf("ENV GREETING=hello")).isGreaterThan(effective.indexOf("git"));
    assertThat(api.get(path, ida.key()).json().get("effectiveDockerfile").asString())
        .isEqualTo(effective);
    assertThat(
            api.send(
                    "PUT",
                    path,
                    ida.key(),
                    "{\"dockerfileExtensions\": \"FROBNICATE\"}",
                    "application/json")
                .text("message"))
        .startsWith("dockerfileExtensions is not valid: line 1:");
    assertError(
        api.post(path + "/validate", ida.key(), "{}"),
        400,
        "Bad Request",
        "dockerfileExtensions is required (a string; empty for none)");
  }
}
