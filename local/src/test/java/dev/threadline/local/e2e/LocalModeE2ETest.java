package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static dev.threadline.local.e2e.LocalModeFixture.BOB_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded default, end to end: what a newcomer gets from the one README command. */
class LocalModeE2ETest {
  private static LocalModeFixture fixture;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    fixture = LocalModeFixture.start();
    client = fixture.local().client();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void eachUserHasANamespaceAndHealthNeedsNoKey() {
    assertThat(fixture.local().namespaces())
        .containsEntry("alice", "alice")
        .containsEntry("bob", "bob");
    assertThat(fixture.get(null, "/health").statusCode()).isEqualTo(200);
    assertThat(fixture.get(null, "/v1/agents").statusCode()).isEqualTo(401);
    assertThat(fixture.get("tl_not_a_key", "/v1/agents").statusCode()).isEqualTo(401);
  }

  @Test
  void anotherUsersResourceIsNotFound() {
    var created =
        fixture.post(ALICE_KEY, "/v1/agents", "{\"name\":\"helper\",\"model\":\"scripted-1\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = created.body().replaceAll("(?s).*\"id\":\"(agent_[^\"]+)\".*", "$1");

    assertThat(fixture.get(ALICE_KEY, "/v1/agents/" + id).statusCode()).isEqualTo(200);
    var asBob = fixture.get(BOB_KEY, "/v1/agents/" + id);
    assertThat(asBob.statusCode()).isEqualTo(404);
    assertThat(asBob.body()).contains("\"error\":\"Not Found\"");
  }

  @Test
  void aPodRunsAsAProcessAndItsLogIsFollowedToTheEnd() throws IOException {
    client
        .resource(shellPod("printer", "echo first; sleep 0.3; echo second; sleep 0.3; echo third"))
        .create();
    ByteArrayOutputStream followed = new ByteArrayOutputStream();
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> phase("printer") != null && !"Pending".equals(phase("printer")));
    try (LogWatch watch =
        client.pods().inNamespace("alice").withName("printer").watchLog(followed)) {
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> followed.toString(StandardCharsets.UTF_8).contains("third"));
    }
    assertThat(followed.toString(StandardCharsets.UTF_8)).isEqualTo("first\nsecond\nthird\n");
    await().atMost(Duration.ofSeconds(10)).until(() -> "Succeeded".equals(phase("printer")));
  }

  @Test
  void theRunnerImageRunsTheRunnerInAJvm() {
    client
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("runner-version")
                .withNamespace("alice")
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("runner")
                .withImage("threadline/runner:local")
                .withArgs("version")
                .endContainer()
                .endSpec()
                .build())
        .create();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            "Succeeded".equals(phase("runner-version"))
                || "Failed".equals(phase("runner-version")));
    assertThat(phase("runner-version")).isEqualTo("Succeeded");
    assertThat(client.pods().inNamespace("alice").withName("runner-version").getLog())
        .isEqualTo("threadline-runner 0.1.0\n");
  }

  @Test
  void aJobIsDrivenToCompletion() {
    client
        .resource(
            new JobBuilder()
                .withNewMetadata()
                .withName("once")
                .withNamespace("alice")
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(0)
                .withNewTemplate()
                .withSpec(shellPod("unused", "echo job done").getSpec())
                .endTemplate()
                .endSpec()
                .build())
        .create();

    Job done =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> client.batch().v1().jobs().inNamespace("alice").withName("once").get(),
                job ->
                    job.getStatus() != null
                        && job.getStatus().getSucceeded() != null
                        && job.getStatus().getSucceeded() == 1);
    assertThat(done.getStatus().getCompletionTime()).isNotNull();
  }

  @Test
  void kubectlAppliesGetsAndDeletesAnExampleManifest() throws Exception {
    Assumptions.assumeTrue(
        Path.of("/usr/bin/kubectl").toFile().canExecute(), "kubectl is not installed");
    String manifest =
        Path.of("..", "examples", "agent.yaml").toAbsolutePath().normalize().toString();

    assertThat(kubectl("apply", "-f", manifest))
        .contains("agent.threadline.dev/agent-reviewer created");
    assertThat(kubectl("get", "agents")).contains("agent-reviewer", "scripted");
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(
                    kubectl(
                        "get",
                        "agent",
                        "agent-reviewer",
                        "-o",
                        "jsonpath={.status.conditions[0].status}"))
                .isEqualTo("True"));
    var viaRest = fixture.get(ALICE_KEY, "/v1/agents/agent_reviewer");
    assertThat(viaRest.statusCode()).as(viaRest.body()).isEqualTo(200);
    assertThat(kubectl("delete", "-f", manifest)).contains("deleted");
    // The api-server reads agents from its informer, which learns of the deletion a moment later.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(fixture.get(ALICE_KEY, "/v1/agents/agent_reviewer").statusCode())
                .isEqualTo(404));
  }

  private static String kubectl(String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "kubectl", "--kubeconfig", fixture.local().kubeconfig().toString(), "-n", "alice"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output.strip();
  }

  private static String phase(String pod) {
    Pod current = client.pods().inNamespace("alice").withName(pod).get();
    return current == null || current.getStatus() == null ? null : current.getStatus().getPhase();
  }

  private static Pod shellPod(String name, String script) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("alice")
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .withCommand("sh", "-c", script)
        .endContainer()
        .endSpec()
        .build();
  }
}
