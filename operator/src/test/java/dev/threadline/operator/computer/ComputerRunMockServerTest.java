package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.environment.ImageDefaults;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.events.RunnerFailureCode;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.BuildStatus;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentDocument;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.EnvironmentVariable;
import dev.threadline.crds.environment.McpServer;
import dev.threadline.crds.environment.ValueSource;
import dev.threadline.crds.run.Attachment;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.operator.ThreadlineOperator;
import dev.threadline.operator.config.OperatorSettings;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import dev.threadline.operator.support.OperatorMockServer;
import dev.threadline.operator.support.StrictStatusDispatcher;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The computer path against fabric8's CRUD mock: the test plays the kubelet (Pod phases) and the
 * runner (its log, through {@link ScriptedPodLogs}). The mock refuses stale status writes, as a
 * cluster does, so that concurrent operators meet real conflicts.
 */
class ComputerRunMockServerTest {
  private static final String NS = "alice";
  private static final Duration WAIT = Duration.ofSeconds(10);
  static KubernetesMockServer server;
  static KubernetesClient client;
  private static final ScriptedPodLogs logs = new ScriptedPodLogs();
  private static ThreadlineOperator operator;

  @BeforeAll
  static void startOperator() {
    server = StrictStatusDispatcher.startServer();
    client = server.createClient();
    OperatorMockServer.registerCrds(server, client);
    operator = ThreadlineOperator.start(client, settings(NS), Clock.systemUTC(), logs);
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
    client.close();
    server.destroy();
  }

  static OperatorSettings settings(String namespace) {
    return OperatorSettings.fromEnvironment(Map.of("THREADLINE_WATCH_NAMESPACES", namespace));
  }

  @Test
  void theAgentPodRunsTheRunnerLockedDownInTheEnvironmentsImage() {
    createEnvironment(
        "env-offline",
        false,
        "env-env-offline:0123abcd",
        "sha256:abababababababababababababababababababababababababababababababab");
    ConversationThread thread = createThread(NS, "thread-spec", "env-offline");
    Run created = run(thread, 1, "Run `ls -la`");
    Attachment attachment = new Attachment();
    attachment.setName("data.csv");
    attachment.setMediaType("text/csv");
    attachment.setContent(
        Base64.getEncoder().encodeToString("a,b\n1,2\n".getBytes(StandardCharsets.UTF_8)));
    created.getSpec().setAttachments(List.of(attachment));
    client.resource(created).create();

    Pod pod = awaitPod(NS, "run-spec-1");
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
    assertThat(spec.getActiveDeadlineSeconds()).isEqualTo(600L);
    assertThat(spec.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(spec.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
    assertThat(spec.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    var container = spec.getContainers().get(0);
    // The tenant's own repository, pinned by the digest the build reported.
    assertThat(container.getImage())
        .isEqualTo(
            "registry.local/threadline/alice/env-env-offline@sha256:abababababababababababababababababababababababababababababababab");
    assertThat(container.getCommand()).containsExactly("/opt/threadline/bin/runner");
    assertThat(container.getArgs())
        .containsExactly(
            "run", "--input", "/threadline/input/run.json", "--workspace", "/workspace");
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getResources().getLimits())
        .containsKeys("cpu", "memory")
        .containsEntry("ephemeral-storage", new Quantity("2Gi"));
    assertThat(container.getResources().getRequests())
        .containsKeys("cpu", "memory")
        .containsEntry("ephemeral-storage", new Quantity("256Mi"));
    assertThat(spec.getVolumes())
        .filteredOn(v -> v.getName().equals("tmp"))
        .singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("1Gi")));
    // The environment's values by reference only: the Pod spec holds no value.
    assertThat(container.getEnv())
        .filteredOn(e -> e.getName().equals("API_URL"))
        .singleElement()
        .satisfies(e -> {
          assertThat(e.getValue()).isNull();
          assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("env-offline-vars");
          assertThat(e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("env.API_URL");
        });
    assertThat(container.getEnv())
        .filteredOn(e -> e.getName().equals("THREADLINE_MCP_TOKEN_0"))
        .singleElement()
        .satisfies(e ->
            assertThat(e.getValueFrom().getSecretKeyRef().getKey())
                .isEqualTo("mcp.docs.bearerToken"));
    // The scripted model needs no key, so none is handed out.
    assertThat(container.getEnv())
        .extracting(e -> e.getName())
        .doesNotContain("THREADLINE_MODEL_API_KEY");
    assertThat(container.getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .containsExactlyInAnyOrder("/threadline/input", "/workspace", "/tmp");
    assertThat(spec.getVolumes())
        .filteredOn(v -> v.getSecret() != null)
        .singleElement()
        .satisfies(v -> {
          assertThat(v.getSecret().getSecretName()).isEqualTo("run-spec-1-input");
          assertThat(v.getSecret().getItems())
              .extracting(i -> i.getPath())
              .containsExactly("run.json", "attachments/data.csv");
        });
    assertThat(spec.getVolumes())
        .filteredOn(v -> v.getPersistentVolumeClaim() != null)
        .singleElement()
        .satisfies(v ->
            assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("workspace-spec"));
    assertThat(spec.getVolumes()).filteredOn(v -> v.getEmptyDir() != null).hasSize(1);

    PersistentVolumeClaim claim =
        client.persistentVolumeClaims().inNamespace(NS).withName("workspace-spec").get();
    assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(claim.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Thread"));

    Secret input = client.secrets().inNamespace(NS).withName("run-spec-1-input").get();
    JsonNode runJson =
        Serialization.unmarshal(
            new String(
                Base64.getDecoder().decode(input.getData().get("run.json")),
                StandardCharsets.UTF_8),
            JsonNode.class);
    assertThat(runJson.path("message").asText()).isEqualTo("Run `ls -la`");
    assertThat(runJson.path("runId").asText()).isEqualTo("run_spec-1");
    assertThat(runJson.path("attachments").get(0).path("path").asText())
        .isEqualTo("attachments/data.csv");
    assertThat(input.getData().get("attachment-0")).isEqualTo(attachment.getContent());
    assertThat(runJson.path("mcpServers").get(0).path("url").asText())
        .isEqualTo("https://mcp.example.com/mcp");
    assertThat(runJson.path("mcpServers").get(0).path("bearerTokenEnv").asText())
        .isEqualTo("THREADLINE_MCP_TOKEN_0");
    assertThat(runJson.path("documentation").get(0).path("content").asText())
        .isEqualTo("Use tabs.");
    assertThat(runJson.toString()).doesNotContain("env.API_URL");

    NetworkPolicy policy =
        client.network().v1().networkPolicies().inNamespace(NS).withName("run-spec-1-egress").get();
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .containsEntry(Labels.RUN, "run-spec-1");
    assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    // The scripted model has no endpoint: DNS only.
    assertThat(policy.getSpec().getEgress())
        .singleElement()
        .satisfies(rule ->
            assertThat(rule.getPorts())
                .allSatisfy(port -> assertThat(port.getPort().getIntVal()).isEqualTo(53)));

    Run running = client.resources(Run.class).inNamespace(NS).withName("run-spec-1").get();
    assertThat(running.getStatus().getPhase()).isEqualTo("running");
    assertThat(running.getStatus().getRoute()).isEqualTo("computer");
    assertThat(running.getStatus().getPod()).isEqualTo("run-spec-1");
    assertThat(running.getStatus().getEvents())
        .extracting(RunEvent::getType)
        .containsExactly("started");
  }

  @Test
  void theRunnersEventsStreamIntoTheRunAndItsResultCompletesIt() {
    ConversationThread thread = createThread(NS, "thread-done", null);
    client.resource(run(thread, 1, "Run `echo hello > a.txt`")).create();
    Pod pod = awaitPod(NS, "run-done-1");
    assertThat(pod.getSpec().getContainers().get(0).getImage())
        .isEqualTo(ImageDefaults.RUNNER_IMAGE);
    // Internet access still leaves out link-local (cloud metadata) and the cluster's ranges.
    NetworkPolicy internet =
        client.network().v1().networkPolicies().inNamespace(NS).withName("run-done-1-egress").get();
    assertThat(internet.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    assertThat(internet.getSpec().getIngress()).isEmpty();
    assertThat(internet.getSpec().getEgress())
        .isEqualTo(EgressRules.internet(ClusterNetwork.none()));
    setPhase(NS, "run-done-1", p -> p.getStatus().setPhase("Running"));

    ScriptedPodLogs.PodLog log = logs.log(NS, "run-done-1");
    log.line("Picked up JAVA_TOOL_OPTIONS: not a protocol line");
    log.emit(RunnerEventType.STARTED, RunnerEventData.started("run_x", "scripted", "/workspace"));
    log.emit(
        RunnerEventType.PLANNING, RunnerEventData.planning("I will run `echo hello > a.txt`."));
    // Streaming: the planning item is in the Run while the agent still works.
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(types(get(NS, "run-done-1")))
                .containsExactly("started", "started", "planning"));
    assertThat(get(NS, "run-done-1").getStatus().getPhase()).isEqualTo("running");

    log.emit(RunnerEventType.USAGE, RunnerEventData.usage(120, 30, 0));
    log.emit(
        RunnerEventType.TOOL_CALL,
        RunnerEventData.toolCall(
            "tool_1",
            "completed",
            RunnerEventData.tool(
                "command_execution",
                "run_command",
                "echo hello > a.txt",
                null,
                "x".repeat(10_000),
                0),
            12));
    log.emit(RunnerEventType.MESSAGE, RunnerEventData.message("Done: a.txt holds hello."));
    log.emit(RunnerEventType.FILE_CHANGE, RunnerEventData.fileChange("a.txt", "create", 1, 0));
    log.emit(
        RunnerEventType.RESULT,
        RunnerEventData.result(
            "Done: a.txt holds hello.",
            List.of("ran `echo hello > a.txt` (exit 0)"),
            RunnerEventData.usage(120, 30, 0),
            List.of(RunnerEventData.diffCreate("a.txt", "hello\n")),
            40));

    Run done = awaitEnded(NS, "run-done-1");
    assertThat(done.getStatus().getPhase()).isEqualTo("completed");
    assertThat(done.getStatus().getResponse()).isEqualTo("Done: a.txt holds hello.");
    assertThat(done.getStatus().getActions()).containsExactly("ran `echo hello > a.txt` (exit 0)");
    assertThat(done.getStatus().getUsage().getInputTokens()).isEqualTo(120L);
    assertThat(done.getStatus().getUsage().getOutputTokens()).isEqualTo(30L);
    assertThat(done.getStatus().getDiffs())
        .singleElement()
        .satisfies(diff -> {
          assertThat(diff.getPath()).isEqualTo("a.txt");
          assertThat(diff.getType()).isEqualTo("create");
          assertThat(diff.getContent()).isEqualTo("hello\n");
        });
    assertThat(types(done))
        .containsExactly(
            "started",
            "started",
            "planning",
            "usage",
            "tool_call",
            "message",
            "file_change",
            "result");
    assertThat(done.getStatus().getEvents())
        .extracting(RunEvent::getSeq)
        .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(done.getStatus().getRunnerSeq()).isEqualTo(7L);
    JsonNode toolCall = done.getStatus().getEvents().get(4).getData();
    assertThat(toolCall.path("tool").path("command").asText()).isEqualTo("echo hello > a.txt");
    assertThat(toolCall.path("tool").path("exit_code").asInt()).isZero();
    assertThat(toolCall.path("tool").path("output").asText())
        .hasSizeLessThan(4200)
        .contains("more characters not kept");

    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName("run-done-1").get() == null);
    await()
        .atMost(WAIT)
        .untilAsserted(() -> {
          ConversationThread rolled =
              client
                  .resources(ConversationThread.class)
                  .inNamespace(NS)
                  .withName("thread-done")
                  .get();
          assertThat(rolled.getStatus().getStatus()).isEqualTo("completed");
          assertThat(rolled.getStatus().getInputTokens()).isEqualTo(120L);
          assertThat(rolled.getStatus().getMessageCount()).isEqualTo(2L);
        });
    // The input stays with the Run, for a look after the fact.
    assertThat(client.secrets().inNamespace(NS).withName("run-done-1-input").get()).isNotNull();
  }

  @Test
  void aPodThatExceedsItsDeadlineEndsTheRunWithExecutionTimeout() {
    ConversationThread thread = createThread(NS, "thread-slow", null);
    client.resource(run(thread, 1, "Run `sleep 3600`")).create();
    awaitPod(NS, "run-slow-1");
    setPhase(NS, "run-slow-1", p -> p.getStatus().setPhase("Running"));
    ScriptedPodLogs.PodLog log = logs.log(NS, "run-slow-1");
    log.emit(RunnerEventType.STARTED, RunnerEventData.started("run_x", "scripted", "/workspace"));
    // activeDeadlineSeconds: the kubelet stops the runner, which says "cancelled" on its way out.
    log.emit(
        RunnerEventType.FAILED,
        RunnerEventData.failed(RunnerFailureCode.EXECUTION_FAILED, "cancelled"));
    log.end();
    setPhase(
        NS,
        "run-slow-1",
        p -> {
          p.getStatus().setPhase("Failed");
          p.getStatus().setReason("DeadlineExceeded");
          p.getStatus().setMessage("Pod was active on the node longer than the specified deadline");
        });

    Run done = awaitEnded(NS, "run-slow-1");
    assertThat(done.getStatus().getPhase()).isEqualTo("failed");
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_timeout");
    assertThat(types(done)).containsExactly("started", "started", "failed");
    assertThat(done.getStatus().getEvents().get(2).getData().path("code").asText())
        .isEqualTo("execution_timeout");
  }

  @Test
  void aPodThatFailsWithoutAResultFailsTheRunWithItsReason() {
    ConversationThread thread = createThread(NS, "thread-crash", null);
    client.resource(run(thread, 1, "Run `make`")).create();
    awaitPod(NS, "run-crash-1");
    setPhase(NS, "run-crash-1", p -> p.getStatus().setPhase("Running"));
    logs.log(NS, "run-crash-1").line("runner run: run.json: message: is required").end();
    setPhase(
        NS,
        "run-crash-1",
        p -> {
          p.getStatus().setPhase("Failed");
          p.getStatus()
              .setContainerStatuses(
                  List.of(
                      new ContainerStatusBuilder()
                          .withName("runner")
                          .withNewState()
                          .withNewTerminated()
                          .withExitCode(2)
                          .withReason("Error")
                          .withMessage("runner run: run.json: message: is required")
                          .endTerminated()
                          .endState()
                          .build()));
        });

    Run done = awaitEnded(NS, "run-crash-1");
    assertThat(done.getStatus().getPhase()).isEqualTo("failed");
    assertThat(done.getStatus().getError().getCode()).isEqualTo("execution_failed");
    assertThat(done.getStatus().getError().getMessage())
        .contains("exit code 2", "message: is required");
    assertThat(types(done)).containsExactly("started", "failed");
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName("run-crash-1").get() == null);
  }

  @Test
  void cancellingARunningRunDeletesItsPodAndEndsItCancelled() {
    ConversationThread thread = createThread(NS, "thread-stop", null);
    client.resource(run(thread, 1, "Run `sleep 30`")).create();
    awaitPod(NS, "run-stop-1");
    setPhase(NS, "run-stop-1", p -> p.getStatus().setPhase("Running"));
    ScriptedPodLogs.PodLog log = logs.log(NS, "run-stop-1");
    log.emit(RunnerEventType.STARTED, RunnerEventData.started("run_x", "scripted", "/workspace"));
    log.emit(RunnerEventType.PLANNING, RunnerEventData.planning("I will run `sleep 30`."));
    await().atMost(WAIT).until(() -> types(get(NS, "run-stop-1")).size() == 3);

    // A merge patch carries no resourceVersion: it does not race the status writes of the running
    // run.
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-stop-1")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"cancelRequested\":true}}");

    Run done = awaitEnded(NS, "run-stop-1");
    assertThat(done.getStatus().getPhase()).isEqualTo("cancelled");
    assertThat(done.getStatus().getError().getCode()).isEqualTo("cancelled");
    assertThat(types(done)).containsExactly("started", "started", "planning", "failed");
    assertThat(done.getStatus().getEvents().get(3).getData().path("code").asText())
        .isEqualTo("cancelled");
    await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(NS).withName("run-stop-1").get() == null);
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(
                    client
                        .resources(ConversationThread.class)
                        .inNamespace(NS)
                        .withName("thread-stop")
                        .get()
                        .getStatus()
                        .getStatus())
                .isEqualTo("cancelled"));
  }

  @Test
  void restartedAndDoubledOperatorsKeepOnePodAndRecordEachEventOnce() {
    String ns = "bob";
    ScriptedPodLogs ownLogs = new ScriptedPodLogs();
    ThreadlineOperator first =
        ThreadlineOperator.start(client, settings(ns), Clock.systemUTC(), ownLogs);
    ConversationThread thread = createThread(ns, "thread-again", null);
    client.resource(run(thread, 1, "Run `ls`")).create();
    String uid = awaitPod(ns, "run-again-1").getMetadata().getUid();
    setPhase(ns, "run-again-1", p -> p.getStatus().setPhase("Running"));
    ScriptedPodLogs.PodLog log = ownLogs.log(ns, "run-again-1");
    log.emit(RunnerEventType.STARTED, RunnerEventData.started("run_x", "scripted", "/workspace"));
    log.emit(RunnerEventType.PLANNING, RunnerEventData.planning("I will run `ls`."));
    await().atMost(WAIT).until(() -> types(get(ns, "run-again-1")).size() == 3);
    first.close();

    // Two operators at once on the same store, both reading the log again from its start.
    ThreadlineOperator second =
        ThreadlineOperator.start(client, settings(ns), Clock.systemUTC(), ownLogs);
    ThreadlineOperator third =
        ThreadlineOperator.start(client, settings(ns), Clock.systemUTC(), ownLogs);
    try {
      await().atMost(WAIT).until(() -> log.follows() >= 3);
      log.emit(
          RunnerEventType.TOOL_CALL,
          RunnerEventData.toolCall(
              "tool_1",
              "completed",
              RunnerEventData.tool("command_execution", "run_command", "ls", null, "a.txt\n", 0),
              5));
      log.emit(RunnerEventType.MESSAGE, RunnerEventData.message("One file."));
      log.emit(
          RunnerEventType.RESULT,
          RunnerEventData.result(
              "One file.",
              List.of("ran `ls` (exit 0)"),
              RunnerEventData.usage(10, 5, 0),
              List.of(),
              9));

      Run done = awaitEnded(ns, "run-again-1");
      assertThat(done.getStatus().getPhase()).isEqualTo("completed");
      assertThat(types(done))
          .containsExactly("started", "started", "planning", "tool_call", "message", "result");
      assertThat(done.getStatus().getEvents())
          .extracting(RunEvent::getSeq)
          .containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
      assertThat(client.pods().inNamespace(ns).list().getItems())
          .allSatisfy(pod -> assertThat(pod.getMetadata().getUid()).isEqualTo(uid));
    } finally {
      second.close();
      third.close();
    }
  }

  private static void createEnvironment(
      String name, boolean internet, String imageTag, String imageDigest) {
    Environment environment = new Environment();
    environment.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    EnvironmentSpec spec = new EnvironmentSpec();
    spec.setDisplayName(name);
    spec.setInternetAccess(internet);
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
    EnvironmentDocument document = new EnvironmentDocument();
    document.setTitle("Style");
    document.setContent("Use tabs.");
    spec.setDocumentation(List.of(document));
    environment.setSpec(spec);
    client.resource(environment).create();
    // Play a finished build, once the environment reconciler has recorded the environment as
    // pending.
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

  private static ConversationThread createThread(String ns, String name, String environment) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    ThreadSpec spec = new ThreadSpec();
    spec.setEnvironment(environment);
    thread.setSpec(spec);
    return client.resource(thread).create();
  }

  private static Run run(ConversationThread thread, long sequence, String message) {
    return ThreadRuns.newRun(thread, sequence, message, List.of(), ThreadRuns.SOURCE_API);
  }

  private static Pod awaitPod(String ns, String name) {
    return await()
        .atMost(WAIT)
        .until(() -> client.pods().inNamespace(ns).withName(name).get(), pod -> pod != null);
  }

  private static void setPhase(String ns, String name, Consumer<Pod> change) {
    client
        .pods()
        .inNamespace(ns)
        .withName(name)
        .editStatus(pod -> {
          if (pod.getStatus() == null) {
            pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
          }
          change.accept(pod);
          return pod;
        });
  }

  private static Run get(String ns, String name) {
    return client.resources(Run.class).inNamespace(ns).withName(name).get();
  }

  private static List<String> types(Run run) {
    return run.getStatus() == null || run.getStatus().getEvents() == null
        ? List.of()
        : run.getStatus().getEvents().stream().map(RunEvent::getType).toList();
  }

  private static Run awaitEnded(String ns, String name) {
    return await()
        .atMost(WAIT)
        .until(
            () -> get(ns, name),
            run ->
                run != null && run.getStatus() != null && run.getStatus().getCompletedAt() != null);
  }
}
