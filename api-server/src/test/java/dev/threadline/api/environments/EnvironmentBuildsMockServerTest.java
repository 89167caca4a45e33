package dev.threadline.api.environments;

import static dev.threadline.api.environments.EnvironmentTestSupport.createEnvironment;
import static dev.threadline.api.environments.EnvironmentTestSupport.ids;
import static dev.threadline.api.environments.EnvironmentTestSupport.specOf;
import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentStatus;
import dev.threadline.crds.environment.TestBuildResult;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Builds, test builds and the default environment, with the test playing the operator's part. */
class EnvironmentBuildsMockServerTest {
  private static SharedApiServer shared;
  private static ApiClient api;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    api = shared.api();
  }

  @Test
  void buildIsAcceptedOnceAndASecondRequestWhileItRunsIsAConflict() {
    TestUser jan = shared.newUser("jan");
    String id = createEnvironment(jan, "build");

    ApiClient.Response accepted = api.post("/environments/" + id + "/build", jan.key(), null);
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
    assertThat(accepted.body())
        .isEqualTo(
            "{\"message\":\"Build started\",\"environmentId\":\""
                + id
                + "\",\"buildStatus\":\"building\"}");
    assertThat(api.get("/environments/" + id + "/build/status", jan.key()).body())
        .isEqualTo(
            "{\"buildStatus\":\"building\",\"buildError\":null,\"imageTag\":null,\"lastBuildAt\":null}");
    assertError(
        api.post("/environments/" + id + "/build", jan.key(), null),
        409,
        "Conflict",
        "Environment build already in progress");

    // The operator takes the request up, and the build ends.
    String requestId = specOf(jan, id).getBuildRequest().getId();
    setStatus(
        jan,
        id,
        status -> {
          status.setBuildRequestId(requestId);
          status.setBuildStatus(BuildStatus.BUILDING);
        });
    assertError(
        api.post("/environments/" + id + "/build?force=true", jan.key(), null),
        409,
        "Conflict",
        "Environment build already in progress");
    String currentHash = currentHash(jan, id);
    setStatus(
        jan,
        id,
        status -> {
          status.setBuildStatus(BuildStatus.READY);
          status.setBuildHash(currentHash);
          status.setImageTag("env-build:" + currentHash);
          status.setLastBuildAt("2026-11-22T00:00:00Z");
        });
    shared
        .client()
        .configMaps()
        .inNamespace(jan.namespace())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(id.replace('_', '-') + "-build-logs")
                .endMetadata()
                .addToData("build.log", "INFO pushed\n")
                .build())
        .create();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(api.get("/environments/" + id + "/build/status", jan.key()).body())
                .isEqualTo(
                    "{\"buildStatus\":\"ready\",\"buildError\":null,\"imageTag\":\"env-build:"
                        + currentHash
                        + "\",\"lastBuildAt\":\"2026-11-22T00:00:00Z\"}"));
    assertThat(api.get("/environments/" + id + "/build/logs", jan.key()).body())
        .isEqualTo("{\"buildLogs\":\"INFO pushed\\n\",\"buildStatus\":\"ready\"}");

    // Up to date: nothing to build unless forced.
    ApiClient.Response upToDate = api.post("/environments/" + id + "/build", jan.key(), null);
    assertThat(upToDate.status()).isEqualTo(200);
    assertThat(upToDate.text("buildStatus")).isEqualTo("ready");
    assertThat(specOf(jan, id).getBuildRequest().getId()).isEqualTo(requestId);
    ApiClient.Response forced =
        api.post("/environments/" + id + "/build?force=true", jan.key(), null);
    assertThat(forced.status()).isEqualTo(202);
    assertThat(specOf(jan, id).getBuildRequest().getForce()).isTrue();
  }

  @Test
  void ofConcurrentBuildRequestsExactlyOneIsAccepted() throws Exception {
    TestUser kim = shared.newUser("kim");
    String id = createEnvironment(kim, "race");

    List<Integer> statuses =
        concurrently(6, () -> api.post("/environments/" + id + "/build", kim.key(), null).status());

    assertThat(statuses).filteredOn(status -> status == 202).hasSize(1);
    assertThat(statuses).filteredOn(status -> status == 409).hasSize(5);
  }

  @Test
  void failedBuildReportsItsErrorAndInvalidExtensionsFailTheTestBuildAtOnce() {
    TestUser lea = shared.newUser("lea");
    String id = createEnvironment(lea, "failing");
    api.post("/environments/" + id + "/build", lea.key(), null);
    String requestId = specOf(lea, id).getBuildRequest().getId();
    setStatus(
        lea,
        id,
        status -> {
          status.setBuildRequestId(requestId);
          status.setBuildStatus(BuildStatus.FAILED);
          status.setBuildError("Package not found");
        });

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(
                    api.get("/environments/" + id + "/build/status", lea.key()).text("buildError"))
                .isEqualTo("Package not found"));
    assertThat(api.get("/environments/" + id + "/build/logs", lea.key()).body())
        .isEqualTo("{\"buildLogs\":null,\"buildStatus\":\"failed\"}");

    // Extensions written with kubectl, bypassing the REST validation: the test build refuses them.
    shared
        .client()
        .resources(Environment.class)
        .inNamespace(lea.namespace())
        .withName(id.replace('_', '-'))
        .edit(e -> {
          e.getSpec().setDockerfileExtensions("FROBNICATE");
          return e;
        });
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(api.post("/environments/" + id + "/build/test", lea.key(), null).body())
                .isEqualTo("{\"success\":false,\"error\":\"Dockerfile syntax error\"}"));
  }

  @Test
  void testBuildAnswers202AndReportsItsOutcomeThroughStatus() {
    TestUser max = shared.newUser("max");
    String id = createEnvironment(max, "trial");
    String status = "/environments/" + id + "/build/status";

    ApiClient.Response started = api.post("/environments/" + id + "/build/test", max.key(), null);
    assertThat(started.status()).isEqualTo(202);
    assertThat(started.text("testBuildStatus")).isEqualTo("building");
    assertThat(started.text("environmentId")).isEqualTo(id);
    String requestId = specOf(max, id).getTestBuildRequest().getId();
    assertThat(api.get(status, max.key()).json().get("testBuild").toString())
        .isEqualTo("{\"status\":\"pending\"}");
    assertError(
        api.post("/environments/" + id + "/build/test", max.key(), null),
        409,
        "Conflict",
        "A test build of this environment is already in progress");

    String hash = currentHash(max, id);
    setStatus(max, id, s -> s.setTestBuild(testBuild(requestId, BuildStatus.BUILDING, null, hash)));
    awaitTestBuild(max, status, "{\"status\":\"building\"}");
    setStatus(max, id, s -> s.setTestBuild(testBuild(requestId, BuildStatus.READY, null, hash)));
    awaitTestBuild(
        max,
        status,
        "{\"status\":\"ready\",\"success\":true,\"imageTag\":\"env-trial:"
            + hash
            + "\",\"message\":\"Test build succeeded; the image was built without cache and not"
            + " pushed\"}");
    assertThat(api.get(status, max.key()).text("buildStatus")).isEqualTo("pending");

    assertThat(api.post("/environments/" + id + "/build/test", max.key(), null).status())
        .isEqualTo(202);
    String secondId = specOf(max, id).getTestBuildRequest().getId();
    assertThat(secondId).isNotEqualTo(requestId);
    setStatus(
        max,
        id,
        s -> s.setTestBuild(testBuild(secondId, BuildStatus.FAILED, "Build timeout", hash)));
    awaitTestBuild(
        max, status, "{\"status\":\"failed\",\"success\":false,\"error\":\"Build timeout\"}");
  }

  /** Waits until the build status shows {@code testBuild} as {@code expected} (JSON). */
  private static void awaitTestBuild(TestUser user, String statusPath, String expected) {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> api.get(statusPath, user.key()).json().get("testBuild").toString(),
            expected::equals);
  }

  @Test
  void defaultIsCreatedOnceEvenForConcurrentFirstCalls() throws Exception {
    TestUser ned = shared.newUser("ned");

    List<String> ids =
        concurrently(
            4,
            () ->
                api.get("/environments/default", ned.key())
                    .json()
                    .get("environment")
                    .get("id")
                    .asString());

    assertThat(ids).containsOnly("env_default");
    ApiClient.Response list = api.get("/environments", ned.key());
    assertThat(ids(list)).containsExactly("env_default");
    assertThat(list.json().get("data").get(0).get("isDefault").asBoolean()).isTrue();
    assertThat(list.json().get("data").get(0).get("name").asString()).isEqualTo("Default");
  }

  @Test
  void exactlyOneDefaultRemainsUnderConcurrentSetDefaultCalls() throws Exception {
    TestUser ola = shared.newUser("ola");
    List<String> candidates = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      candidates.add(createEnvironment(ola, "candidate " + i));
    }
    String first =
        api.post("/environments/" + candidates.get(0) + "/set-default", ola.key(), null)
            .json()
            .get("environment")
            .get("id")
            .asString();
    assertThat(first).isEqualTo(candidates.get(0));

    int[] next = {0};
    List<Integer> statuses =
        concurrently(
            8,
            () -> {
              String id;
              synchronized (next) {
                id = candidates.get(next[0]++ % candidates.size());
              }
              return api.post("/environments/" + id + "/set-default", ola.key(), null).status();
            });

    assertThat(statuses).containsOnly(200);
    List<String> defaults =
        shared
            .client()
            .resources(Environment.class)
            .inNamespace(ola.namespace())
            .list()
            .getItems()
            .stream()
            .filter(e -> Boolean.TRUE.equals(e.getSpec().getIsDefault()))
            .map(e -> e.getMetadata().getName().replaceFirst("-", "_"))
            .toList();
    assertThat(defaults).hasSize(1);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          assertThat(ids(api.get("/environments?isDefault=true", ola.key()))).isEqualTo(defaults);
          assertThat(
                  api.get("/environments/default", ola.key())
                      .json()
                      .get("environment")
                      .get("id")
                      .asString())
              .isEqualTo(defaults.getFirst());
        });

    // Creating with isDefault moves the default; so does PATCH.
    String created =
        api.post("/environments", ola.key(), "{\"name\": \"newest\", \"isDefault\": true}")
            .json()
            .get("environment")
            .get("id")
            .asString();
    assertThat(ids(api.get("/environments?isDefault=true", ola.key()))).containsExactly(created);
    api.patch("/environments/" + candidates.get(2), ola.key(), "{\"isDefault\": true}");
    assertThat(ids(api.get("/environments?isDefault=true", ola.key())))
        .containsExactly(candidates.get(2));
  }

  private static TestBuildResult testBuild(
      String requestId, BuildStatus phase, String error, String hash) {
    TestBuildResult result = new TestBuildResult();
    result.setRequestId(requestId);
    result.setPhase(phase);
    result.setError(error);
    result.setImageTag("env-trial:" + hash);
    return result;
  }

  private static String currentHash(TestUser user, String id) {
    var settings = EnvironmentImageSettings.fromEnvironment(Map.of());
    return new DockerfilePreview(settings).render(specOf(user, id)).buildHash().value();
  }

  private static void setStatus(TestUser user, String id, Consumer<EnvironmentStatus> change) {
    shared
        .client()
        .resources(Environment.class)
        .inNamespace(user.namespace())
        .withName(id.replace('_', '-'))
        .editStatus(environment -> {
          EnvironmentStatus status =
              environment.getStatus() == null ? new EnvironmentStatus() : environment.getStatus();
          change.accept(status);
          environment.setStatus(status);
          return environment;
        });
  }

  private static <T> List<T> concurrently(int calls, java.util.concurrent.Callable<T> call)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(calls);
    try {
      List<java.util.concurrent.Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        futures.add(pool.submit(call));
      }
      List<T> results = new ArrayList<>();
      for (var future : futures) {
        results.add(future.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
