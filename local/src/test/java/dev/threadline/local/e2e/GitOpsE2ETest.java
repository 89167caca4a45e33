package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a GitOps pipeline and a person with the real {@code kubectl} see: an Environment applied
 * from Git is built by itself and {@code kubectl wait --for=condition=Ready} returns, and {@code
 * kubectl describe} shows the Events of a build and of a run.
 */
class GitOpsE2ETest {
  private static final Path KUBECTL = Path.of("/usr/bin/kubectl");

  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @BeforeAll
  static void needsKubectl() {
    Assumptions.assumeTrue(KUBECTL.toFile().canExecute(), "kubectl is not installed");
  }

  @Test
  void anEnvironmentAppliedFromGitIsBuiltAndKubectlWaitSeesItReady() throws Exception {
    String manifest =
        Path.of("..", "examples", "environment.yaml").toAbsolutePath().normalize().toString();

    assertThat(kubectl("apply", "-f", manifest))
        .contains("environment.threadline.dev/env-python-data created");
    assertThat(
            kubectl(
                "wait", "--for=condition=Ready", "environment/env-python-data", "--timeout=120s"))
        .contains("condition met");

    assertThat(
            kubectl(
                "get",
                "environment",
                "env-python-data",
                "-o",
                "jsonpath={.status.buildStatus} {.status.observedGeneration}"
                    + " {.status.conditions[*].type}"))
        .isEqualTo("ready 1 Ready");
    String described = kubectl("describe", "environment", "env-python-data");
    assertThat(described)
        .contains("Events:")
        .containsPattern(
            "Normal\\s+BuildStarted\\s+.*The changed spec builds image env-python-data-work:")
        .containsPattern(
            "Normal\\s+BuildSucceeded\\s+.*Image env-python-data-work:[0-9a-f]{16} is built");
  }

  @Test
  void kubectlDescribeRunShowsItsRouteSandboxAndEnd() throws Exception {
    var response =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/v1/threads",
            "{\"task\": \"Run `echo secret-free`\", \"stream\": false}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    String threadName =
        response.body().replaceAll("(?s).*?\"id\":\"thread_([^\"]+)\".*", "thread-$1");
    String run = ThreadRuns.runName(threadName, 1);

    String described =
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> kubectl("describe", "run", run), text -> text.contains("RunSucceeded"));
    String events = described.substring(described.indexOf("Events:"));
    assertThat(events)
        .containsPattern("Normal\\s+Routed\\s+.*Routed: computer")
        .containsPattern("Normal\\s+Sandbox(Started|Claimed)\\s+")
        .containsPattern("Normal\\s+RunSucceeded\\s+.*The run completed in \\d+ ms")
        // Events say what happened, never what was said.
        .doesNotContain("echo secret-free");
    assertThat(kubectl("get", "events", "--field-selector", "involvedObject.name=" + run))
        .contains(run);
  }

  private static String kubectl(String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                KUBECTL.toString(),
                "--kubeconfig",
                fixture.local().kubeconfig().toString(),
                "-n",
                "alice"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(150, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output.strip();
  }
}
