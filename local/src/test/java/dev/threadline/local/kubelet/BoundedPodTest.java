package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadline.local.kubelet.limits.ResourceControl;
import dev.threadline.local.kubelet.limits.ResourceControls;
import dev.threadline.local.kubelet.sandbox.Confinement;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandboxes held to their Pod's limits by the host's cgroups, as local mode runs them. Each hostile
 * program is bounded itself (a fixed number of forks, a few hundred MB), so that a limit that fails
 * cannot hurt the machine the tests share.
 */
@EnableKubernetesMockClient(crud = true)
class BoundedPodTest {
  private static final String NS = TestPods.NAMESPACE;
  private static final long PIDS = 40;

  KubernetesClient client;
  @TempDir Path dataDir;
  private ResourceControl resources;
  private ProcessKubelet kubelet;

  @BeforeEach
  void startKubelet() {
    Confinement confinement = Confinement.detect(System.getenv());
    assumeTrue(
        confinement.available() && confinement.trial().isEmpty(),
        "bubblewrap (bwrap) is not installed or cannot run: the sandbox cannot be tested here");
    resources = ResourceControls.detect(System.getenv());
    assumeTrue(
        resources.describe().contains("cgroup"),
        "no cgroup can be made here: " + resources.describe());
    kubelet =
        new ProcessKubelet(
            client,
            KubeletSettings.of(dataDir)
                .withTerminationGrace(Duration.ofSeconds(1))
                .withConfinement(confinement)
                .withResources(resources, PIDS),
            TestPods.busybox());
    kubelet.start();
  }

  @AfterEach
  void stopKubelet() {
    if (kubelet != null) {
      kubelet.close();
    }
    if (resources != null) {
      resources.close();
    }
  }

  @Test
  void forksBeyondTheProcessLimitFail() {
    // Up to 100 sleepers, 40 processes allowed (bwrap and the shell among them); the shell stops
    // at the first fork that fails.
    Pod pod =
        run(
            "forks",
            Map.of(),
            "i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); echo started $i; done");

    String log = log("forks");
    int started = Integer.parseInt(log.replaceAll("(?s).*started (\\d+)\n.*", "$1"));
    assertThat(started).isBetween(1, (int) PIDS);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
  }

  @Test
  void aMemoryHogIsKilledAtItsLimit() {
    // 300 MB held in one process (tail keeps its last lines whole: here one line), 64 MiB allowed.
    Pod pod = run("hog", Map.of("memory", "64Mi"), "head -c 300000000 /dev/zero | tail -n 1");

    ContainerStatus status = pod.getStatus().getContainerStatuses().getFirst();
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(status.getState().getTerminated().getExitCode()).isEqualTo(137);
    assertThat(status.getState().getTerminated().getReason()).isEqualTo(PodRunner.OOM_KILLED);
  }

  @Test
  void theSandboxesTmpAndRootHoldNoMoreThanItsStorageLimit() {
    run(
        "tmp",
        Map.of("ephemeral-storage", "8Mi"),
        "head -c 20000000 /dev/zero > /tmp/big; echo tmp=$(wc -c < /tmp/big);"
            + " mkdir -p /var/fill; head -c 20000000 /dev/zero > /var/fill/big;"
            + " echo root=$(wc -c < /var/fill/big)");

    String log = log("tmp");
    assertThat(log).contains("tmp=", "root=");
    assertThat(Long.parseLong(log.replaceAll("(?s).*tmp=(\\d+).*", "$1"))).isLessThan(9_000_000);
    assertThat(Long.parseLong(log.replaceAll("(?s).*root=(\\d+).*", "$1"))).isLessThan(9_000_000);
  }

  @Test
  void aPodWhoseWorkspaceFillsPastItsSizeLimitIsEvicted() {
    // 1 MB a file, up to 200 MB over 20 s; the workspace may hold 16 MiB.
    Pod pod =
        run(
            "filler",
            Map.of(),
            "for i in $(seq 200); do head -c 1000000 /dev/zero > f$i; sleep 0.1; done",
            new Quantity("16Mi"));

    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(pod.getStatus().getReason()).isEqualTo(PodRunner.EVICTED);
    assertThat(pod.getStatus().getMessage())
        .isEqualTo("Usage of EmptyDir volume \"workspace\" exceeds the limit \"16Mi\". ");
  }

  private Pod run(String name, Map<String, String> limits, String script) {
    return run(name, limits, script, null);
  }

  /** A Pod with its workspace emptyDir at /workspace, as agent Pods have; waits for its end. */
  private Pod run(String name, Map<String, String> limits, String script, Quantity sizeLimit) {
    PodBuilder pod =
        TestPods.shell(name, script)
            .editSpec()
            .addNewVolume()
            .withName("workspace")
            .withNewEmptyDir()
            .withSizeLimit(sizeLimit)
            .endEmptyDir()
            .endVolume()
            .editFirstContainer()
            .withWorkingDir("/workspace")
            .withNewResources()
            .addToLimits(
                limits.entrySet().stream()
                    .collect(
                        java.util.stream.Collectors.toMap(
                            Map.Entry::getKey, entry -> new Quantity(entry.getValue()))))
            .endResources()
            .addNewVolumeMount()
            .withName("workspace")
            .withMountPath("/workspace")
            .endVolumeMount()
            .endContainer()
            .endSpec();
    client.resource(pod.build()).create();
    return await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> client.pods().inNamespace(NS).withName(name).get(),
            created ->
                created.getStatus() != null
                    && List.of("Succeeded", "Failed").contains(created.getStatus().getPhase()));
  }

  private String log(String pod) {
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> kubelet.find(NS, pod, "main").map(log -> log.finished()).orElse(false));
    return new String(
        kubelet.find(NS, pod, "main").orElseThrow().snapshot(), StandardCharsets.UTF_8);
  }
}
