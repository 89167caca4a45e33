package dev.threadline.operator.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.sandbox.SandboxCredential;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.StrictStatusDispatcher;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The computer path with the worker, through the whole operator against the CRUD mock: the run gets
 * a sandbox Pod, its credential Secret and its NetworkPolicy (none holding the platform's model
 * key); once the Pod is ready the worker runs the loop against the sandbox (an in-process stand-in
 * on the Pod's port) and writes the outcome; then the sandbox, its Secret and its policy go.
 */
class SandboxPathMockServerTest {
  private static final String NS = "frank";
  private static final String CANARY = "sk-canary-7f3k9q";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private KubernetesMockServer server;
  private KubernetesClient client;
  private StandInSandbox sandbox;
  private ThreadlineOperator operator;

  @BeforeEach
  void start() throws Exception {
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    sandbox =
        new StandInSandbox(
            command -> new StandInSandbox.CommandOutcome(0, "ran " + command + "\n"));
    int port = sandbox.address().base().getPort();
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_WATCH_NAMESPACES",
                NS,
                "THREADLINE_AGENT_WORKER",
                "true",
                "THREADLINE_WORKER_NAME",
                "operator-0",
                "THREADLINE_MODEL_API_KEY",
                CANARY,
                "THREADLINE_CONTAINER_PORTS",
                port + "-" + port,
                "THREADLINE_API_SERVER_NAMESPACE",
                "tl-system"));
    operator = ThreadlineOperator.start(client, settings, Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    operator.close();
    sandbox.close();
    client.close();
    server.destroy();
  }

  @Test
  void aComputerRunWorksInItsSandboxAndItsSandboxGoesWhenItEnds() {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName("thread-box").withNamespace(NS).build());
    thread.setSpec(new ThreadSpec());
    thread = client.resource(thread).create();
    client
        .resource(ThreadRuns.newRun(thread, 1, "Run `echo hi`", List.of(), ThreadRuns.SOURCE_API))
        .create();

    Pod pod =
        await()
            .atMost(WAIT)
            .until(() -> client.pods().inNamespace(NS).withName("run-box-1").get(), p -> p != null);
    assertThat(pod.getSpec().getContainers().get(0).getArgs()).contains("serve", "--token-file");
    assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
    assertThat(Serialization.asJson(pod)).doesNotContain(CANARY).doesNotContain("THREADLINE_MODEL");
    String encodedCanary =
        Base64.getEncoder().encodeToString(CANARY.getBytes(StandardCharsets.UTF_8));
    assertThat(client.secrets().inNamespace(NS).list().getItems())
        .allSatisfy(
            secret -> assertThat(Serialization.asJson(secret)).doesNotContain(encodedCanary));
    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace(NS).withName("run-box-1-egress").get();
    assertThat(policy.getSpec().getIngress())
        .singleElement()
        .satisfies(rule ->
            assertThat(rule.getFrom())
                .singleElement()
                .satisfies(from ->
                    assertThat(from.getPodSelector().getMatchLabels())
                        .containsExactly(Map.entry("app.kubernetes.io/component", "operator"))));

    Secret credential = client.secrets().inNamespace(NS).withName("run-box-1-sandbox").get();
    sandbox.credential(SandboxCredential.read(credential).orElseThrow());
    setPodStatus(
        "run-box-1",
        status -> {
          status.setPhase("Running");
          status.setPodIP("127.0.0.1");
          status.setConditions(
              List.of(new PodConditionBuilder().withType("Ready").withStatus("True").build()));
        });

    Run done =
        await()
            .atMost(WAIT)
            .until(
                () -> client.resources(Run.class).inNamespace(NS).withName("run-box-1").get(),
                run -> run.getStatus() != null && run.getStatus().getCompletedAt() != null);
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
    assertThat(done.getStatus().getResponse()).contains("echo hi");
    assertThat(sandbox.executions()).isEqualTo(1);

    await()
        .atMost(WAIT)
        .untilAsserted(() -> {
          assertThat(client.pods().inNamespace(NS).withName("run-box-1").get()).isNull();
          assertThat(client.secrets().inNamespace(NS).withName("run-box-1-sandbox").get()).isNull();
          assertThat(
                  client
                      .network()
                      .v1()
                      .networkPolicies()
                      .inNamespace(NS)
                      .withName("run-box-1-egress")
                      .get())
              .isNull();
        });
  }

  @Test
  void aSandboxThatExceedsItsDeadlineEndsTheRunWithExecutionTimeout() {
    createRun("thread-slow", "Run `sleep 3600`");
    awaitPod("run-slow-1");
    setPodStatus(
        "run-slow-1",
        status -> {
          status.setPhase("Failed");
          status.setReason("DeadlineExceeded");
        });

    Run done = awaitEnded("run-slow-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.FAILED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_timeout");
    assertThat(done.getStatus().getEvents())
        .extracting(RunEvent::getType)
        .containsExactly("started", "failed");
    assertThat(sandbox.executions()).isZero();
  }

  @Test
  void cancellingARunDeletesItsSandboxAndEndsItCancelled() {
    createRun("thread-stop", "Run `sleep 30`");
    awaitPod("run-stop-1");

    // A merge patch carries no resourceVersion: it does not race the run's status writes.
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-stop-1")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"cancelRequested\":true}}");

    Run done = awaitEnded("run-stop-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.CANCELLED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("cancelled");
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName("run-stop-1").get() == null);
  }

  @Test
  void aSandboxThatFailsFailsTheRunWithItsReason() {
    createRun("thread-crash", "Run `make`");
    awaitPod("run-crash-1");
    setPodStatus(
        "run-crash-1",
        status -> {
          status.setPhase("Failed");
          status.setContainerStatuses(
              List.of(
                  new ContainerStatusBuilder()
                      .withName("runner")
                      .withNewState()
                      .withNewTerminated()
                      .withExitCode(2)
                      .withReason("Error")
                      .withMessage("runner serve: --token-file: no such file")
                      .endTerminated()
                      .endState()
                      .build()));
        });

    Run done = awaitEnded("run-crash-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.FAILED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_failed");
    assertThat(done.getStatus().getError().getMessage()).contains("exit code 2", "no such file");
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName("run-crash-1").get() == null);
  }

  /** Plays the kubelet: the Pod's status becomes what {@code change} makes of a fresh one. */
  private void setPodStatus(String name, Consumer<PodStatus> change) {
    client
        .pods()
        .inNamespace(NS)
        .withName(name)
        .editStatus(pod -> {
          pod.setStatus(new PodStatus());
          change.accept(pod.getStatus());
          return pod;
        });
  }

  private void createRun(String threadName, String message) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(threadName).withNamespace(NS).build());
    thread.setSpec(new ThreadSpec());
    thread = client.resource(thread).create();
    client
        .resource(ThreadRuns.newRun(thread, 1, message, List.of(), ThreadRuns.SOURCE_API))
        .create();
  }

  private Pod awaitPod(String name) {
    return await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName(name).get(), p -> p != null);
  }

  private Run awaitEnded(String name) {
    return await()
        .atMost(WAIT)
        .until(
            () -> client.resources(Run.class).inNamespace(NS).withName(name).get(),
            run -> run.getStatus() != null && run.getStatus().getCompletedAt() != null);
  }
}
