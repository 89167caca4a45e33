package dev.threadline.operator.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.BuildPolicy;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentVariable;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.environment.ValueSource;
import dev.threadline.crds.environment.WarmPool;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.history.History;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.computer.SandboxCondition;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.sandbox.SandboxCredential;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.PoolPods;
import dev.threadline.operator.support.RunLogs;
import dev.threadline.operator.support.RunStatusOwners;
import dev.threadline.operator.support.StrictStatusDispatcher;
import dev.threadline.operator.usage.RunUsageRecorder;
import dev.threadline.telemetry.Telemetry;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.LongStream;
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
  private KubernetesClient operatorClient;
  private final RunStatusOwners owners = new RunStatusOwners();
  private StandInSandbox sandbox;
  private final CountDownLatch slowStarted = new CountDownLatch(1);
  private final CountDownLatch slowMayEnd = new CountDownLatch(1);
  private ThreadlineOperator operator;
  private History history;

  @BeforeEach
  void start() throws Exception {
    server = StrictStatusDispatcher.startServer(owners::around);
    client = server.createClient();
    operatorClient = RunStatusOwners.operatorClient(client);
    OperatorMockServer.registerCrds(server, client);
    sandbox =
        new StandInSandbox(command -> {
          if (command.startsWith("slow")) {
            slowStarted.countDown();
            await().atMost(WAIT).until(() -> slowMayEnd.getCount() == 0);
          }
          return new StandInSandbox.CommandOutcome(0, "ran " + command + "\n");
        });
    history = History.temporary();
    operator = startOperator("operator-0");
  }

  /** An operator (with its worker) named {@code name}, its sandboxes on the stand-in's port. */
  private ThreadlineOperator startOperator(String name) {
    return startOperator(name, sandbox.address().base().getPort());
  }

  private ThreadlineOperator startOperator(String name, int port) {
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_WATCH_NAMESPACES",
                NS,
                "THREADLINE_WORKER_NAME",
                name,
                "THREADLINE_MODEL_API_KEY",
                CANARY,
                "THREADLINE_CONTAINER_PORTS",
                port + "-" + port,
                "THREADLINE_API_SERVER_NAMESPACE",
                "tl-system"));
    // Every operator of a test on the one store, as the replicas of a cluster share theirs.
    return ThreadlineOperator.start(
        operatorClient, settings, Clock.systemUTC(), Telemetry.off(), history);
  }

  /** After every scenario: each field of each Run's status was changed by its one owner only. */
  @AfterEach
  void stop() {
    slowMayEnd.countDown();
    operator.close();
    List<RunStatusOwners.Violation> violations = owners.violations();
    sandbox.close();
    operatorClient.close();
    client.close();
    server.destroy();
    history.close();
    assertThat(violations).isEmpty();
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
    assertThat(done.getStatus().getStart()).isEqualTo("cold");
    // Routing and the sandbox by the operator, the outcome by the worker (checked field by field
    // after each test): both wrote here.
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(owners.writersByField("run-box-1"))
                .containsEntry("route", Set.of(RunStatusOwners.OPERATOR))
                .containsEntry("pod", Set.of(RunStatusOwners.OPERATOR))
                .containsEntry("conditions[Ready]", Set.of(RunStatusOwners.OPERATOR))
                .containsEntry("phase", Set.of(RunStatusOwners.OPERATOR, RunStatusOwners.WORKER))
                .containsEntry(
                    "lastEventSeq", Set.of(RunStatusOwners.OPERATOR, RunStatusOwners.WORKER))
                .containsEntry("response", Set.of(RunStatusOwners.WORKER))
                .containsEntry("completedAt", Set.of(RunStatusOwners.WORKER)));

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
  void aProcessThatCannotProveTheRunsCredentialOnItsAddressFailsTheRunSayingSo() {
    // The stand-in proves only its own credential: another process holding the sandbox's port.
    createRun("thread-foreign", "Run `echo hi`");
    awaitPod("run-foreign-1");
    setPodStatus(
        "run-foreign-1",
        status -> {
          status.setPhase("Running");
          status.setPodIP("127.0.0.1");
          status.setConditions(
              List.of(new PodConditionBuilder().withType("Ready").withStatus("True").build()));
        });

    Run done = awaitEnded("run-foreign-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.FAILED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_failed");
    assertThat(done.getStatus().getError().getMessage())
        .contains("is not this run's sandbox", "cannot prove");
    assertThat(sandbox.executions()).isZero();
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
    assertThat(RunLogs.types(history, done)).containsExactly("started", "failed");
    assertThat(sandbox.executions()).isZero();
    // The computer path reported the sandbox; the worker, which never held the run, ended it.
    assertThat(Conditions.find(done.getStatus().getConditions(), SandboxCondition.TYPE))
        .hasValueSatisfying(condition -> {
          assertThat(condition.getStatus()).isEqualTo("False");
          assertThat(condition.getReason()).isEqualTo("ExecutionTimeout");
        });
    assertThat(owners.writersByField("run-slow-1"))
        .containsEntry("conditions[SandboxReady]", Set.of(RunStatusOwners.OPERATOR))
        .containsEntry("error", Set.of(RunStatusOwners.WORKER));
  }

  @Test
  void cancellingARunDeletesItsSandboxAndEndsItCancelled() {
    createRun("thread-stop", "Run `sleep 30`");
    awaitPod("run-stop-1");

    requestCancel("run-stop-1");

    Run done = awaitEnded("run-stop-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.CANCELLED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("cancelled");
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName("run-stop-1").get() == null);
  }

  @Test
  void aSandboxThatCannotStartIsReportedAndTheRunEndsFailedSayingWhy() {
    createRun("thread-nowhere", "Run `make`", "env-nowhere");

    Run done = awaitEnded("run-nowhere-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.FAILED.value());
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_failed");
    assertThat(done.getStatus().getError().getMessage())
        .isEqualTo("Environment env-nowhere does not exist");
    // The contract's sequence as before: computer.starting, then response.failed.
    assertThat(RunLogs.types(history, done)).containsExactly("started", "failed");
    assertThat(done.getStatus().getPod()).isNull();
    assertThat(owners.writersByField("run-nowhere-1"))
        .containsEntry("conditions[SandboxReady]", Set.of(RunStatusOwners.OPERATOR))
        .containsEntry("phase", Set.of(RunStatusOwners.OPERATOR, RunStatusOwners.WORKER))
        .containsEntry("completedAt", Set.of(RunStatusOwners.WORKER));
  }

  @Test
  void aClaimedStartIsRecordedWithItsRoutingAndACancelEndsItWithoutItsSandboxEverServing()
      throws Exception {
    // Sandboxes on a port nobody serves: the worker waits for the claimed one, the cancel comes.
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    operator.close();
    operator = startOperator("operator-1", deadPort);
    Environment environment = new Environment();
    environment.setMetadata(new ObjectMetaBuilder().withName("env-warm").withNamespace(NS).build());
    EnvironmentSpec environmentSpec = new EnvironmentSpec();
    environmentSpec.setDisplayName("warm");
    environmentSpec.setBuildPolicy(BuildPolicy.MANUAL);
    environmentSpec.setWarmPool(new WarmPool(1));
    environment.setSpec(environmentSpec);
    client.resource(environment).create();
    Pod pooled =
        PoolPods.awaitUnclaimed(client, NS, "env-warm", WAIT, pods -> pods.size() == 1).getFirst();
    PoolPods.markReady(client, pooled);
    var environments = client.resources(Environment.class).inNamespace(NS).withName("env-warm");
    await()
        .atMost(WAIT)
        .until(() -> {
          var status = environments.get().getStatus();
          return status != null
              && status.getWarmPool() != null
              && status.getWarmPool().getReady() == 1;
        });
    createRun("thread-warm", "Run `make`", "env-warm");
    Run claimed =
        await()
            .atMost(WAIT)
            .until(
                () -> get("run-warm-1"),
                run -> run.getStatus() != null && run.getStatus().getPod() != null);
    assertThat(claimed.getStatus().getStart()).isEqualTo("claimed");
    assertThat(claimed.getStatus().getPod()).isEqualTo(pooled.getMetadata().getName());

    requestCancel("run-warm-1");

    Run done = awaitEnded("run-warm-1");
    assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.CANCELLED.value());
    assertThat(RunLogs.types(history, done)).containsExactly("started", "failed");
    // Route and claimed Pod in one write of the operator's; the ending the worker's.
    assertThat(owners.of("run-warm-1").getFirst().after().path("pod").asText())
        .isEqualTo(pooled.getMetadata().getName());
    assertThat(owners.writersByField("run-warm-1"))
        .containsEntry("start", Set.of(RunStatusOwners.OPERATOR))
        .containsEntry("phase", Set.of(RunStatusOwners.OPERATOR, RunStatusOwners.WORKER))
        .containsEntry("error", Set.of(RunStatusOwners.WORKER));
    await()
        .atMost(WAIT)
        .until(() ->
            client.pods().inNamespace(NS).withName(pooled.getMetadata().getName()).get() == null);
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

  @Test
  void theSandboxPodServesToolsLockedDownInTheEnvironmentsImageAndHoldsNoCredential() {
    createEnvironment(
        "env-offline",
        "env-env-offline:0123abcd",
        "sha256:abababababababababababababababababababababababababababababababab");
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName("thread-spec").withNamespace(NS).build());
    ThreadSpec threadSpec = new ThreadSpec();
    threadSpec.setEnvironment("env-offline");
    thread.setSpec(threadSpec);
    thread = client.resource(thread).create();
    Run created = ThreadRuns.newRun(thread, 1, "Run `ls -la`", List.of(), ThreadRuns.SOURCE_API);
    Attachment attachment = new Attachment();
    attachment.setName("data.csv");
    attachment.setMediaType("text/csv");
    attachment.setContent(
        Base64.getEncoder().encodeToString("a,b\n1,2\n".getBytes(StandardCharsets.UTF_8)));
    created.getSpec().setAttachments(List.of(attachment));
    client.resource(created).create();

    Pod pod = awaitPod("run-spec-1");
    assertThat(pod.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getKind()).isEqualTo("Run");
          assertThat(owner.getName()).isEqualTo("run-spec-1");
          assertThat(owner.getController()).isTrue();
        });
    assertThat(pod.getMetadata().getLabels())
        .containsEntry(Labels.THREAD, "thread-spec")
        .containsEntry(Labels.RUN, "run-spec-1");
    var spec = pod.getSpec();
    assertThat(spec.getRestartPolicy()).isEqualTo("Never");
    assertThat(spec.getAutomountServiceAccountToken()).isFalse();
    assertThat(spec.getEnableServiceLinks()).isFalse();
    assertThat(spec.getActiveDeadlineSeconds()).isEqualTo(600L);
    assertThat(spec.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(spec.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
    assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    var container = spec.getContainers().get(0);
    // The tenant's own repository, pinned by the digest the build reported.
    assertThat(container.getImage())
        .isEqualTo(
            "registry.local/threadline/frank/env-env-offline@sha256:abababababababababababababababababababababababababababababababab");
    assertThat(container.getCommand()).containsExactly("/opt/threadline/bin/runner");
    assertThat(container.getArgs()).startsWith("serve", "--workspace", "/workspace");
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getResources().getLimits())
        .containsKeys("cpu", "memory")
        .containsEntry("ephemeral-storage", new Quantity("2Gi"));
    assertThat(container.getResources().getRequests())
        .containsKeys("cpu", "memory")
        .containsEntry("ephemeral-storage", new Quantity("256Mi"));
    // The environment's values by reference only: the Pod spec holds no value.
    assertThat(container.getEnv())
        .filteredOn(e -> e.getName().equals("API_URL"))
        .singleElement()
        .satisfies(e -> {
          assertThat(e.getValue()).isNull();
          assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("env-offline-vars");
          assertThat(e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("env.API_URL");
        });
    // No platform variable, no model key, and no http MCP server's token: the worker calls it.
    assertThat(container.getEnv())
        .extracting(e -> e.getName())
        .noneMatch(name -> name.startsWith("THREADLINE_"));
    assertThat(container.getEnv())
        .filteredOn(e -> e.getValueFrom() != null)
        .noneMatch(e -> e.getValueFrom().getSecretKeyRef().getKey().startsWith("mcp."));
    assertThat(Serialization.asJson(pod))
        .doesNotContain(CANARY)
        .doesNotContain("mcp.example.com")
        .doesNotContain("data.csv");
    assertThat(container.getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .containsExactlyInAnyOrder("/var/run/threadline/access", "/workspace", "/tmp");
    assertThat(spec.getVolumes())
        .filteredOn(v -> v.getSecret() != null)
        .singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("run-spec-1-sandbox"));
    assertThat(spec.getVolumes())
        .noneMatch(v -> v.getProjected() != null || v.getHostPath() != null);
    assertThat(spec.getVolumes())
        .filteredOn(v -> v.getPersistentVolumeClaim() != null)
        .singleElement()
        .satisfies(v ->
            assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("workspace-spec"));
    assertThat(spec.getVolumes())
        .filteredOn(v -> v.getName().equals("tmp"))
        .singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("1Gi")));

    PersistentVolumeClaim claim =
        client.persistentVolumeClaims().inNamespace(NS).withName("workspace-spec").get();
    assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(claim.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Thread"));
    // The conversation and the attachments reach the workspace through the worker, not a Secret.
    assertThat(client.secrets().inNamespace(NS).list().getItems())
        .extracting(secret -> secret.getMetadata().getName())
        .containsExactly("run-spec-1-sandbox");

    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace(NS).withName("run-spec-1-egress").get();
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .containsEntry(Labels.RUN, "run-spec-1");
    assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    // An environment without internet access: DNS only.
    assertThat(policy.getSpec().getEgress())
        .singleElement()
        .satisfies(rule ->
            assertThat(rule.getPorts())
                .allSatisfy(port -> assertThat(port.getPort().getIntVal()).isEqualTo(53)));

    Run running = client.resources(Run.class).inNamespace(NS).withName("run-spec-1").get();
    assertThat(running.getStatus().getPhase()).isEqualTo("running");
    assertThat(running.getStatus().getRoute()).isEqualTo("computer");
    assertThat(RunLogs.types(history, running)).containsExactly("started");
    await().atMost(WAIT).until(() -> "run-spec-1".equals(get("run-spec-1").getStatus().getPod()));
  }

  @Test
  void restartedAndDoubledOperatorsKeepOneSandboxAndRunEachToolCallOnce() {
    createRun("thread-again", "Run `ls`");
    String uid = awaitPod("run-again-1").getMetadata().getUid();
    await().atMost(WAIT).until(() -> get("run-again-1").getStatus().getPod() != null);
    operator.close();

    // Two operators at once on the same store, each with its worker.
    operator = startOperator("operator-1");
    try (ThreadlineOperator third = startOperator("operator-2")) {
      Secret credential = client.secrets().inNamespace(NS).withName("run-again-1-sandbox").get();
      sandbox.credential(SandboxCredential.read(credential).orElseThrow());
      setPodStatus(
          "run-again-1",
          status -> {
            status.setPhase("Running");
            status.setPodIP("127.0.0.1");
            status.setConditions(
                List.of(new PodConditionBuilder().withType("Ready").withStatus("True").build()));
          });

      Run done = awaitEnded("run-again-1");
      assertThat(done.getStatus().getPhase()).isEqualTo(RunPhase.COMPLETED.value());
      assertThat(done.getStatus().getActions()).containsExactly("ran `ls` (exit 0)");
      List<RunLogs.Event> events = RunLogs.events(history, done);
      // The operator's started (computer.starting), then the worker's loop, each event once.
      assertThat(events)
          .extracting(RunLogs.Event::type)
          .containsExactly(
              "started",
              "started",
              "planning",
              "reasoning",
              "usage",
              "tool_call",
              "message",
              "usage",
              "result");
      assertThat(events)
          .extracting(RunLogs.Event::seq)
          .isEqualTo(LongStream.rangeClosed(1, events.size()).boxed().toList());
      assertThat(sandbox.executions()).isEqualTo(1);
      assertThat(client.pods().inNamespace(NS).list().getItems())
          .allSatisfy(pod -> assertThat(pod.getMetadata().getUid()).isEqualTo(uid));
    }
  }

  @Test
  void aRunDeletedMidLoopIsCountedWithWhatItSpentAndItsLoopAndSandboxGo() throws Exception {
    createRun("thread-gone", "Run `slow build`, then `echo after`");
    awaitPod("run-gone-1");
    Secret credential = client.secrets().inNamespace(NS).withName("run-gone-1-sandbox").get();
    sandbox.credential(SandboxCredential.read(credential).orElseThrow());
    setPodStatus(
        "run-gone-1",
        status -> {
          status.setPhase("Running");
          status.setPodIP("127.0.0.1");
          status.setConditions(
              List.of(new PodConditionBuilder().withType("Ready").withStatus("True").build()));
        });
    assertThat(slowStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    Run working = get("run-gone-1");
    assertThat(working.getMetadata().getFinalizers()).contains(RunUsageRecorder.FINALIZER);
    long spent =
        RunLogs.events(history, working).stream()
            .filter(event -> event.type().equals("usage"))
            .mapToLong(event -> event.data().path("input_tokens").asLong())
            .max()
            .orElseThrow();
    assertThat(spent).isPositive();

    AtomicReference<Run> lastSeen = new AtomicReference<>(working);
    var watch =
        client
            .resources(Run.class)
            .inNamespace(NS)
            .withName("run-gone-1")
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Run run) {
                    lastSeen.set(run);
                  }

                  @Override
                  public void onUpdate(Run before, Run run) {
                    lastSeen.set(run);
                  }

                  @Override
                  public void onDelete(Run run, boolean unknownFinalState) {}
                });
    client.resources(Run.class).inNamespace(NS).withName("run-gone-1").delete();
    // Held for counting while its loop stops: the sandbox Pod goes first.
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName("run-gone-1").get() == null);
    assertThat(get("run-gone-1").getMetadata().getDeletionTimestamp()).isNotNull();
    slowMayEnd.countDown(); // the tool call in flight returns; the loop takes no next step

    await().atMost(WAIT).until(() -> get("run-gone-1") == null);
    watch.close();
    // Its last state before it went: ended by the deletion, with what its loop reported.
    Run last = lastSeen.get();
    assertThat(last.getStatus().getPhase()).isEqualTo(RunPhase.CANCELLED.value());
    assertThat(last.getStatus().getError().getMessage()).contains("deleted");
    assertThat(last.getStatus().getUsage().getInputTokens()).isEqualTo(spent);
    assertThat(last.getStatus().getUsageRecorded()).isTrue();
    UsageLedger ledger =
        client
            .resources(UsageLedger.class)
            .inNamespace(NS)
            .withName(UsagePeriod.of(Clock.systemUTC().instant()).ledgerName())
            .get();
    assertThat(ledger.getStatus().getRuns()).isEqualTo(1L);
    assertThat(ledger.getStatus().tokens().getInputTokens()).isEqualTo(spent);
    assertThat(sandbox.executions()).isEqualTo(1); // `echo after` never ran
    assertThat(client.secrets().inNamespace(NS).withName("run-gone-1-sandbox").get()).isNull();
    assertThat(
            client
                .network()
                .v1()
                .networkPolicies()
                .inNamespace(NS)
                .withName("run-gone-1-egress")
                .get())
        .isNull();
  }

  private void createEnvironment(String name, String imageTag, String imageDigest) {
    Environment environment = new Environment();
    environment.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName(name);
    spec.setBuildPolicy(BuildPolicy.MANUAL); // the test writes its built image
    spec.setInternetAccess(false);
    EnvironmentVariable variable = new EnvironmentVariable();
    variable.setKey("API_URL");
    variable.setValueFrom(secretValue(name + "-vars", "env.API_URL"));
    spec.setEnvironmentVariables(List.of(variable));
    McpServer mcp = new McpServer();
    mcp.setType("http");
    mcp.setName("docs");
    mcp.setUrl("https://mcp.example.com/mcp");
    mcp.setBearerTokenFrom(secretValue(name + "-vars", "mcp.docs.bearerToken"));
    spec.setMcpServers(List.of(mcp));
    environment.setSpec(spec);
    client.resource(environment).create();
    // Play a finished build, once the environment reconciler has recorded it as pending.
    var environments = client.resources(Environment.class).inNamespace(NS).withName(name);
    await().atMost(WAIT).until(() -> environments.get().getStatus() != null);
    environments.editStatus(current -> {
      current.getStatus().setBuildStatus(BuildStatus.READY);
      current.getStatus().setImageTag(imageTag);
      current.getStatus().setImageDigest(imageDigest);
      return current;
    });
    await()
        .atMost(WAIT)
        .until(() -> environments.get().getStatus().getBuildStatus() == BuildStatus.READY);
  }

  private static ValueSource secretValue(String secret, String key) {
    SecretKeyReference ref = new SecretKeyReference();
    ref.setName(secret);
    ref.setKey(key);
    ValueSource source = new ValueSource();
    source.setSecretKeyRef(ref);
    return source;
  }

  private Run get(String name) {
    return client.resources(Run.class).inNamespace(NS).withName(name).get();
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

  /** As the api-server's cancel does: a merge patch, no resourceVersion to race status writes. */
  private void requestCancel(String run) {
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName(run)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"cancelRequested\":true}}");
  }

  private void createRun(String threadName, String message) {
    createRun(threadName, message, null);
  }

  /** A thread (working in {@code environment}, when not null) and its first run. */
  private void createRun(String threadName, String message, String environment) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(threadName).withNamespace(NS).build());
    ThreadSpec spec = new ThreadSpec();
    spec.setEnvironment(environment);
    thread.setSpec(spec);
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
