package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadline.local.kubelet.sandbox.Confinement;
import dev.threadline.local.kubelet.sandbox.LauncherEnvironment;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pods as sandboxes under bubblewrap, as local mode runs them: what agent code can and cannot reach
 * from inside one.
 */
@EnableKubernetesMockClient(crud = true)
class SandboxedPodTest {
  private static final String NS = TestPods.NAMESPACE;

  KubernetesClient client;
  @TempDir Path dataDir;
  private ProcessKubelet kubelet;

  @BeforeEach
  void startKubelet() {
    Confinement confinement = Confinement.detect(System.getenv());
    assumeTrue(
        confinement.available() && confinement.trial().isEmpty(),
        "bubblewrap (bwrap) is not installed or cannot run: the sandbox cannot be tested here");
    kubelet =
        new ProcessKubelet(
            client,
            KubeletSettings.of(dataDir)
                .withTerminationGrace(Duration.ofSeconds(1))
                .withConfinement(confinement),
            TestPods.busybox());
    kubelet.start();
  }

  @AfterEach
  void stopKubelet() {
    if (kubelet != null) {
      kubelet.close();
    }
  }

  @Test
  void aPodWritesItsWorkspaceButSeesNeitherAnotherPodsNorTheDataFolder() throws Exception {
    Files.writeString(dataDir.resolve("kubeconfig"), "secret-of-the-launcher");
    // Commands start in the workspace (a shell string's /workspace is not translated locally).
    run("owner", "echo mine > note.txt && cat note.txt");
    assertThat(log("owner")).isEqualTo("mine\n");
    Path othersNote = dataDir.resolve("pods/" + NS + "/owner/volumes/workspace/note.txt");
    assertThat(othersNote).hasContent("mine");

    run(
        "intruder",
        "cat "
            + othersNote
            + " || echo no-note; cat "
            + dataDir.resolve("kubeconfig")
            + " || echo no-kubeconfig; echo pods: $(ls "
            + dataDir.resolve("pods/" + NS)
            + "); cat "
            + Path.of("pom.xml").toAbsolutePath()
            + " || echo no-launcher-files");

    // Only the path to its own Pod's folders exists; the runtime (JVM, class path) is read-only.
    assertThat(log("intruder"))
        .contains("no-note", "no-kubeconfig", "pods: intruder\n", "no-launcher-files")
        .doesNotContain("mine", "secret-of-the-launcher", "<project");
  }

  @Test
  void noProcessItCanSeeHoldsTheLaunchersEnvironment() throws Exception {
    run(
        "reader",
        "echo own=$POD_CANARY; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done;"
            + " echo parent-pid=$PPID; grep CapEff /proc/self/status",
        Map.of("POD_CANARY", "declared-value"));

    String seen = log("reader");
    assertThat(seen).contains("own=declared-value");
    assertThat(seen).containsPattern("CapEff:\\s+0+\\n"); // no capabilities, even as root
    LauncherEnvironment.assertNoneIn(seen);
    assertThat(seen).doesNotContain("/proc/" + ProcessHandle.current().pid() + "/");
  }

  @Test
  void withoutEgressTheHostsLoopbackIsUnreachable() throws Exception {
    try (ServerSocket host = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      String connect =
          "(echo hello > /dev/tcp/127.0.0.1/"
              + host.getLocalPort()
              + ") && echo reached"
              + " || echo unreachable";
      runBash("open", connect, Map.of("app", "open"));
      assertThat(log("open")).contains("reached").doesNotContain("unreachable");

      client
          .resource(
              new NetworkPolicyBuilder()
                  .withNewMetadata()
                  .withName("offline")
                  .withNamespace(NS)
                  .endMetadata()
                  .withNewSpec()
                  .withNewPodSelector()
                  .addToMatchLabels("app", "closed")
                  .endPodSelector()
                  .withPolicyTypes("Ingress", "Egress")
                  .addNewEgress()
                  .addNewPort()
                  .withProtocol("UDP")
                  .withPort(new IntOrString(53))
                  .endPort()
                  .endEgress()
                  .endSpec()
                  .build())
          .create();
      runBash("closed", connect, Map.of("app", "closed"));
      assertThat(log("closed")).contains("unreachable");
    }
  }

  @Test
  void aPodWithoutNetworkIsStillReachableOnItsPortThroughTheBridge() throws Exception {
    client
        .resource(
            new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName("deny-all")
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withNewPodSelector()
                .endPodSelector()
                .withPolicyTypes("Egress")
                .endSpec()
                .build())
        .create();
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Pod pod =
        new PodBuilder(
                TestPods.shell("server", "")
                    .editSpec()
                    .editFirstContainer()
                    .withCommand(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        EchoServer.class.getName(),
                        Integer.toString(port))
                    .addNewPort()
                    .withContainerPort(port)
                    .endPort()
                    .endContainer()
                    .endSpec()
                    .build())
            .build();
    client.resource(pod).create();

    String answer =
        await()
            .atMost(Duration.ofSeconds(20))
            .ignoreExceptions()
            .until(() -> exchange(port), reply -> reply.equals("echo:hello"));

    assertThat(answer).isEqualTo("echo:hello");
    awaitPhase("server", "Succeeded");
  }

  private static String exchange(int port) throws Exception {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write("hello".getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private void run(String name, String script) {
    run(name, script, Map.of());
  }

  private void run(String name, String script, Map<String, String> env) {
    create(name, List.of("sh", "-c", script), env, Map.of());
  }

  private void runBash(String name, String script, Map<String, String> labels) {
    create(name, List.of("bash", "-c", script), Map.of(), labels);
  }

  /** A Pod with its workspace volume at /workspace, as agent Pods have; waits for its end. */
  private void create(
      String name, List<String> command, Map<String, String> env, Map<String, String> labels) {
    PodBuilder pod =
        TestPods.shell(name, "")
            .editMetadata()
            .withLabels(labels)
            .endMetadata()
            .editSpec()
            .addNewVolume()
            .withName("workspace")
            .withNewEmptyDir()
            .endEmptyDir()
            .endVolume()
            .editFirstContainer()
            .withCommand(command)
            .withWorkingDir("/workspace")
            .addNewVolumeMount()
            .withName("workspace")
            .withMountPath("/workspace")
            .endVolumeMount()
            .endContainer()
            .endSpec();
    env.forEach((variable, value) ->
        pod.editSpec()
            .editFirstContainer()
            .addNewEnv()
            .withName(variable)
            .withValue(value)
            .endEnv()
            .endContainer()
            .endSpec());
    client.resource(pod.build()).create();
    await()
        .atMost(Duration.ofSeconds(15))
        .until(
            () -> client.pods().inNamespace(NS).withName(name).get(),
            created ->
                created.getStatus() != null
                    && List.of("Succeeded", "Failed").contains(created.getStatus().getPhase()));
  }

  private void awaitPhase(String name, String phase) {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> client.pods().inNamespace(NS).withName(name).get(),
            pod -> pod.getStatus() != null && phase.equals(pod.getStatus().getPhase()));
  }

  private String log(String pod) {
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> kubelet.find(NS, pod, "main").map(log -> log.finished()).orElse(false));
    return new String(
        kubelet.find(NS, pod, "main").orElseThrow().snapshot(), StandardCharsets.UTF_8);
  }
}
