package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An environment build through the local mode: the REST API asks, the operator starts a Kaniko Job,
 * the process kubelet runs the local build check in its place, and the outcome comes back as build
 * status and logs.
 */
class EnvironmentsE2ETest {
  private static final Duration BUILD = Duration.ofSeconds(90);
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void createBuildPollUntilReadyAndReadTheLogs() {
    var created =
        fixture.post(
            ALICE_KEY,
            "/environments",
            "{\"name\": \"e2e\", \"runtimes\": {\"python\": \"3.12\"}, \"packages\": {\"system\":"
                + " [\"git\"]}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = idOf(created.body());

    var build = fixture.post(ALICE_KEY, "/environments/" + id + "/build", "");
    assertThat(build.statusCode()).as(build.body()).isEqualTo(202);
    assertThat(build.body()).contains("\"buildStatus\":\"building\"");
    assertThat(fixture.post(ALICE_KEY, "/environments/" + id + "/build", "").statusCode())
        .isEqualTo(409);

    String status =
        await()
            .atMost(BUILD)
            .pollInterval(Duration.ofMillis(250))
            .until(
                () -> fixture.get(ALICE_KEY, "/environments/" + id + "/build/status").body(),
                body -> !body.contains("\"buildStatus\":\"building\""));
    assertThat(status)
        .contains("\"buildStatus\":\"ready\"", "\"buildError\":null")
        .containsPattern("\"imageTag\":\"env-e2e:[0-9a-f]{16}\"")
        .containsPattern("\"lastBuildAt\":\"[^\"]+Z\"");

    String logs = fixture.get(ALICE_KEY, "/environments/" + id + "/build/logs").body();
    // The tenant's own repository path (its namespace), built by one step and pushed by another.
    assertThat(logs)
        .contains(
            "container images are not built here",
            "for the push step",
            "Nothing was pushed",
            "\"buildStatus\":\"ready\"")
        .containsPattern("Would push registry\\.local/threadline/[a-z0-9-]+/env-e2e:[0-9a-f]{16}");
  }

  @Test
  void aDockerfileSyntaxErrorWrittenWithKubectlFailsTheBuildWithTheContractsMessage() {
    String id = idOf(fixture.post(ALICE_KEY, "/environments", "{\"name\": \"broken\"}").body());
    // The REST API refuses invalid extensions, so they arrive the way a GitOps user could write
    // them:
    // a merge patch (kubectl patch --type merge), which the operator's concurrent status writes
    // cannot conflict with.
    fixture
        .local()
        .client()
        .resources(dev.threadline.crds.environment.Environment.class)
        .inNamespace("alice")
        .withName(id.replaceFirst("_", "-"))
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"dockerfileExtensions\":\"FROBNICATE now\"}}");
    // The API server answers from its cache of Environments: the test build must see the patch.
    await()
        .atMost(BUILD)
        .until(
            () -> fixture.get(ALICE_KEY, "/environments/" + id + "/dockerfile").body(),
            body -> body.contains("FROBNICATE now"));

    var testBuild =
        fixture.send(
            fixture
                .request(ALICE_KEY, "/environments/" + id + "/build/test")
                .timeout(BUILD)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(testBuild.body())
        .isEqualTo("{\"success\":false,\"error\":\"Dockerfile syntax error\"}");

    assertThat(fixture.post(ALICE_KEY, "/environments/" + id + "/build", "").statusCode())
        .isEqualTo(202);
    String status =
        await()
            .atMost(BUILD)
            .pollInterval(Duration.ofMillis(250))
            .until(
                () -> fixture.get(ALICE_KEY, "/environments/" + id + "/build/status").body(),
                body -> !body.contains("\"buildStatus\":\"building\""));
    assertThat(status)
        .contains("\"buildStatus\":\"failed\"", "\"buildError\":\"Dockerfile syntax error\"");
  }

  private static String idOf(String body) {
    return body.replaceAll("(?s).*?\"id\":\"(env_[^\"]+)\".*", "$1");
  }
}
