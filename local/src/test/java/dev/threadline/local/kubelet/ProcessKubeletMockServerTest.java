package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@EnableKubernetesMockClient(crud = true)
class ProcessKubeletMockServerTest {
  private static final String NS = TestPods.NAMESPACE;

  KubernetesClient client;
  @TempDir Path dataDir;
  private ProcessKubelet kubelet;

  @BeforeEach
  void startKubelet() {
    kubelet =
        new ProcessKubelet(
            client,
            KubeletSettings.of(dataDir).withTerminationGrace(Duration.ofSeconds(1)),
            TestPods.busybox());
    kubelet.start();
  }

  @AfterEach
  void stopKubelet() {
    kubelet.close();
  }

  @Test
  void podGoesThroughPendingAndRunningToFailedWithTheExitCode() {
    List<String> phases = new CopyOnWriteArrayList<>();
    try (Watch ignored =
        client.pods().inNamespace(NS).withName("exit3").watch(new PhaseRecorder(phases))) {
      client
          .resource(TestPods.build("exit3", "echo hello; echo bye >&2; sleep 0.2; exit 3"))
          .create();

      Pod pod = awaitPhase("exit3", "Failed");

      assertThat(phases).containsSubsequence("Pending", "Running", "Failed");
      assertThat(pod.getStatus().getStartTime()).isNotNull();
      assertThat(pod.getStatus().getPodIP()).isEqualTo("127.0.0.1");
      assertThat(pod.getStatus().getConditions())
          .anyMatch(c -> c.getType().equals("PodScheduled") && c.getStatus().equals("True"));
      ContainerStatus main = pod.getStatus().getContainerStatuses().getFirst();
      assertThat(main.getRestartCount()).isZero();
      ContainerStateTerminated terminated = main.getState().getTerminated();
      assertThat(terminated.getExitCode()).isEqualTo(3);
      assertThat(terminated.getReason()).isEqualTo("Error");
      assertThat(terminated.getStartedAt()).isNotNull();
      assertThat(terminated.getFinishedAt()).isNotNull();
    }
  }

  @Test
  void runningPodReportsItsStartedContainerAndSucceeds() {
    client.resource(TestPods.build("ok", "sleep 0.5")).create();

    Pod running = awaitPhase("ok", "Running");
    ContainerStatus main = running.getStatus().getContainerStatuses().getFirst();
    assertThat(main.getState().getRunning().getStartedAt()).isNotNull();
    assertThat(main.getReady()).isTrue();
    assertThat(main.getStarted()).isTrue();

    Pod done = awaitPhase("ok", "Succeeded");
    ContainerStateTerminated terminated =
        done.getStatus().getContainerStatuses().getFirst().getState().getTerminated();
    assertThat(terminated.getExitCode()).isZero();
    assertThat(terminated.getReason()).isEqualTo("Completed");
  }

  @Test
  void logIsCapturedMergedAndFollowableToTheEnd() throws Exception {
    client
        .resource(
            TestPods.build("talk", "echo one; sleep 0.3; echo two >&2; sleep 0.3; echo three"))
        .create();

    await().atMost(Duration.ofSeconds(5)).until(() -> kubelet.find(NS, "talk", null).isPresent());
    ByteArrayOutputStream followed = new ByteArrayOutputStream();
    AtomicBoolean ended = new AtomicBoolean();
    try (AutoCloseable handle =
        kubelet
            .find(NS, "talk", null)
            .orElseThrow()
            .follow(chunk -> followed.writeBytes(chunk), () -> ended.set(true))) {
      await().atMost(Duration.ofSeconds(5)).untilTrue(ended);
    }

    assertThat(followed.toString(StandardCharsets.UTF_8)).isEqualTo("one\ntwo\nthree\n");
    assertThat(kubelet.find(NS, "talk", "main")).isPresent();
    assertThat(kubelet.find(NS, "talk", "other")).isEmpty();
    awaitPhase("talk", "Succeeded");
    assertThat(dataDir.resolve("pods/" + NS + "/talk/main.log")).hasContent("one\ntwo\nthree");
  }

  @Test
  void processSeesSecretVariablesButNothingOfTheHostEnvironment() {
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("creds")
                .withNamespace(NS)
                .endMetadata()
                .addToData(
                    "token",
                    Base64.getEncoder().encodeToString("s3cret".getBytes(StandardCharsets.UTF_8)))
                .build())
        .create();
    client
        .resource(
            TestPods.shell("env", "env")
                .editSpec()
                .editFirstContainer()
                .addNewEnv()
                .withName("TOKEN")
                .withNewValueFrom()
                .withNewSecretKeyRef("token", "creds", false)
                .endValueFrom()
                .endEnv()
                .addNewEnv()
                .withName("GREETING")
                .withValue("hi $(TOKEN_NAME)")
                .endEnv()
                .addNewEnv()
                .withName("POD")
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath("metadata.name")
                .endFieldRef()
                .endValueFrom()
                .endEnv()
                .endContainer()
                .endSpec()
                .build())
        .create();

    awaitPhase("env", "Succeeded");
    Map<String, String> env =
        logLines("env", "main").stream()
            .filter(line -> line.contains("="))
            .collect(
                Collectors.toMap(
                    line -> line.substring(0, line.indexOf('=')),
                    line -> line.substring(line.indexOf('=') + 1),
                    (a, b) -> b));

    assertThat(env)
        .containsEntry("TOKEN", "s3cret")
        .containsEntry("POD", "env")
        .containsEntry("THREADLINE_LOCAL", "1")
        .containsEntry("GREETING", "hi $(TOKEN_NAME)");
    assertThat(env.get("HOME")).isEqualTo(dataDir.resolve("pods/" + NS + "/env/home").toString());
    // Only the kubelet's minimal base, the Pod's variables and what the shell itself sets.
    assertThat(env.keySet())
        .isSubsetOf(
            Set.of(
                "PATH",
                "HOME",
                "TMPDIR",
                "LANG",
                "HOSTNAME",
                "THREADLINE_LOCAL",
                "TOKEN",
                "GREETING",
                "POD",
                "PWD",
                "SHLVL",
                "_",
                "OLDPWD"));
  }

  @Test
  void configMapVolumeIsReadableAtTheTranslatedContainerPath() {
    client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("cfg")
                .withNamespace(NS)
                .endMetadata()
                .addToData("greeting", "hello from a configmap")
                .addToData("other", "x")
                .build())
        .create();
    client
        .resource(
            TestPods.shell("cfg", "ignored")
                .editSpec()
                .addNewVolume()
                .withName("config")
                .withNewConfigMap()
                .withName("cfg")
                .addNewItem()
                .withKey("greeting")
                .withPath("sub/greeting.txt")
                .endItem()
                .endConfigMap()
                .endVolume()
                .editFirstContainer()
                .withCommand("cat", "/etc/config/sub/greeting.txt")
                .addNewVolumeMount()
                .withName("config")
                .withMountPath("/etc/config")
                .endVolumeMount()
                .endContainer()
                .endSpec()
                .build())
        .create();

    awaitPhase("cfg", "Succeeded");

    assertThat(logLines("cfg", "main")).containsExactly("hello from a configmap");
  }

  @Test
  void initContainerRunsFirstThenContainersRunTogetherSharingAnEmptyDir() {
    client
        .resource(
            TestPods.shell("multi", "ignored")
                .editSpec()
                .addNewVolume()
                .withName("shared")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .addNewInitContainer()
                .withName("prepare")
                .withImage("busybox")
                .withCommand("sh", "-c", "echo prepared > \"$SHARED/state\"")
                .addNewEnv()
                .withName("SHARED")
                .withValue("/shared")
                .endEnv()
                .addNewVolumeMount()
                .withName("shared")
                .withMountPath("/shared")
                .endVolumeMount()
                .endInitContainer()
                .editFirstContainer()
                .withName("first")
                .withCommand("cat", "/shared/state")
                .addNewVolumeMount()
                .withName("shared")
                .withMountPath("/shared")
                .endVolumeMount()
                .endContainer()
                .addNewContainer()
                .withName("second")
                .withImage("busybox")
                .withWorkingDir("/shared")
                .withCommand("sh", "-c", "cat state; exit 0")
                .addNewVolumeMount()
                .withName("shared")
                .withMountPath("/shared")
                .endVolumeMount()
                .endContainer()
                .endSpec()
                .build())
        .create();

    Pod pod = awaitPhase("multi", "Succeeded");

    assertThat(logLines("multi", "first")).containsExactly("prepared");
    assertThat(logLines("multi", "second")).containsExactly("prepared");
    assertThat(
            pod.getStatus()
                .getInitContainerStatuses()
                .getFirst()
                .getState()
                .getTerminated()
                .getExitCode())
        .isZero();
    assertThat(pod.getStatus().getContainerStatuses())
        .hasSize(2)
        .allSatisfy(status ->
            assertThat(status.getState().getTerminated().getReason()).isEqualTo("Completed"));
  }

  @Test
  void activeDeadlineKillsALongPod() {
    client
        .resource(
            TestPods.shell("slow", "sleep 30")
                .editSpec()
                .withActiveDeadlineSeconds(1L)
                .endSpec()
                .build())
        .create();

    Pod pod = awaitPhase("slow", "Failed", Duration.ofSeconds(8));

    assertThat(pod.getStatus().getReason()).isEqualTo("DeadlineExceeded");
    assertThat(pod.getStatus().getMessage())
        .isEqualTo("Pod was active on the node longer than the specified deadline");
    assertThat(pod.getStatus().getContainerStatuses().getFirst().getState().getTerminated())
        .isNotNull();
  }

  @Test
  void deletingAPodKillsItsProcessAndDoesNotResurrectIt() {
    client.resource(TestPods.build("doomed", "sleep 30")).create();
    Pod running = awaitPhase("doomed", "Running");
    long pid =
        Long.parseLong(
            running
                .getStatus()
                .getContainerStatuses()
                .getFirst()
                .getContainerID()
                .replace("process://", ""));
    assertThat(ProcessHandle.of(pid)).isPresent();

    client.resource(running).delete();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true));
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(2))
        .until(() -> client.pods().inNamespace(NS).withName("doomed").get() == null);
    assertThat(kubelet.find(NS, "doomed", null)).isEmpty();
  }

  @Test
  void imageWithoutALocalProgramFailsAtOnceNamingTheImage() {
    client
        .resource(
            TestPods.shell("unknown", "true")
                .editSpec()
                .editFirstContainer()
                .withImage("ghcr.io/acme/agent:1")
                .endContainer()
                .endSpec()
                .build())
        .create();

    Pod pod = awaitPhase("unknown", "Failed");

    assertThat(pod.getStatus().getReason()).isEqualTo("ImageNotRunnableLocally");
    assertThat(pod.getStatus().getMessage())
        .contains("ghcr.io/acme/agent:1")
        .contains("busybox (the host shell)");
    assertThat(
            pod.getStatus().getContainerStatuses().getFirst().getState().getWaiting().getReason())
        .isEqualTo("ImageNotRunnableLocally");
  }

  @Test
  void missingRequiredSecretFailsWithCreateContainerConfigError() {
    client
        .resource(
            TestPods.shell("nosecret", "true")
                .editSpec()
                .editFirstContainer()
                .addNewEnv()
                .withName("TOKEN")
                .withNewValueFrom()
                .withNewSecretKeyRef("token", "absent", false)
                .endValueFrom()
                .endEnv()
                .addNewEnv()
                .withName("MAYBE")
                .withNewValueFrom()
                .withNewSecretKeyRef("token", "absent", true)
                .endValueFrom()
                .endEnv()
                .endContainer()
                .endSpec()
                .build())
        .create();

    Pod pod = awaitPhase("nosecret", "Failed");

    assertThat(pod.getStatus().getReason()).isEqualTo("CreateContainerConfigError");
    assertThat(pod.getStatus().getMessage()).contains("secret \"absent\" not found");
  }

  @Test
  void eachPodRunsOnceHoweverOftenItIsUpdated() throws Exception {
    client
        .resource(
            TestPods.shell("once", "echo ran >> \"$WORK/runs\"; sleep 0.5")
                .editSpec()
                .addNewVolume()
                .withName("work")
                .withNewPersistentVolumeClaim()
                .withClaimName("ws")
                .endPersistentVolumeClaim()
                .endVolume()
                .editFirstContainer()
                .addNewEnv()
                .withName("WORK")
                .withValue("/work")
                .endEnv()
                .addNewVolumeMount()
                .withName("work")
                .withMountPath("/work")
                .endVolumeMount()
                .endContainer()
                .endSpec()
                .build())
        .create();
    awaitPhase("once", "Running");
    for (int i = 0;
        i < 3;
        i++) { // merge patches: the kubelet's status writes meanwhile cannot conflict with them
      client
          .pods()
          .inNamespace(NS)
          .withName("once")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              Serialization.asJson(
                  Map.of("metadata", Map.of("labels", Map.of("touched", String.valueOf(i))))));
    }

    awaitPhase("once", "Succeeded");

    assertThat(Files.readAllLines(dataDir.resolve("volumes/" + NS + "/ws/runs")))
        .containsExactly("ran");
  }

  @Test
  void deletingAClaimRemovesItsFolder() throws Exception {
    Path folder = Files.createDirectories(dataDir.resolve("volumes/" + NS + "/workspace/src"));
    Files.writeString(folder.resolve("main.py"), "print('hi')");
    PersistentVolumeClaim claim =
        client
            .resource(
                new PersistentVolumeClaimBuilder()
                    .withNewMetadata()
                    .withName("workspace")
                    .withNamespace(NS)
                    .endMetadata()
                    .build())
            .create();

    client.resource(claim).delete();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> !Files.exists(dataDir.resolve("volumes/" + NS + "/workspace")));
  }

  private Pod awaitPhase(String name, String phase) {
    return awaitPhase(name, phase, Duration.ofSeconds(5));
  }

  private Pod awaitPhase(String name, String phase, Duration atMost) {
    return await()
        .atMost(atMost)
        .until(
            () -> client.pods().inNamespace(NS).withName(name).get(),
            pod ->
                pod != null && pod.getStatus() != null && phase.equals(pod.getStatus().getPhase()));
  }

  private List<String> logLines(String pod, String container) {
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> kubelet.find(NS, pod, container).map(log -> log.finished()).orElse(false));
    String text =
        new String(
            kubelet.find(NS, pod, container).orElseThrow().snapshot(), StandardCharsets.UTF_8);
    return Arrays.stream(text.split("\n")).filter(line -> !line.isEmpty()).toList();
  }

  private record PhaseRecorder(List<String> phases) implements Watcher<Pod> {
    @Override
    public void eventReceived(Action action, Pod pod) {
      if (pod.getStatus() != null
          && pod.getStatus().getPhase() != null
          && (phases.isEmpty() || !phases.getLast().equals(pod.getStatus().getPhase()))) {
        phases.add(pod.getStatus().getPhase());
      }
    }

    @Override
    public void onClose(WatcherException cause) {}
  }
}
