package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.sandbox.Confinement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the process kubelet runs Pods on this host.
 *
 * @param dataDir where Pods live: {@code <dataDir>/pods/<ns>/<pod>/…} (volumes, home, logs) and
 *     claims at {@code <dataDir>/volumes/<ns>/<claimName>}
 * @param terminationGrace how long a process may take to end after SIGTERM before it is killed
 * @param processPath the {@code PATH} every process gets (processes see no other host variable)
 * @param apiServerUrl where a Pod that asks for a service-account token ({@code
 *     automountServiceAccountToken: true}) reaches the Kubernetes API, given to it as {@code
 *     KUBERNETES_MASTER} (fabric8 clients read it; the embedded API needs no token); null for none.
 *     A real kubelet mounts a token instead; Pods that do not ask explicitly get nothing.
 * @param confinement how sandbox processes are confined: every Pod that does not ask for API access
 *     (agent and container Pods, image builds) runs under bubblewrap when it is available
 */
public record KubeletSettings(
    Path dataDir,
    Duration terminationGrace,
    String processPath,
    String apiServerUrl,
    Confinement confinement) {
  private static final String FALLBACK_PATH =
      "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  public KubeletSettings {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(terminationGrace, "terminationGrace");
    Objects.requireNonNull(processPath, "processPath");
    Objects.requireNonNull(confinement, "confinement");
    if (terminationGrace.isNegative()) {
      throw new IllegalArgumentException("terminationGrace must not be negative");
    }
  }

  /**
   * The host's PATH (so installed tools are found), a grace period of 5 seconds, and no confinement
   * (see {@link #withConfinement}).
   */
  public static KubeletSettings of(Path dataDir) {
    String hostPath = System.getenv("PATH");
    return new KubeletSettings(
        dataDir.toAbsolutePath(),
        Duration.ofSeconds(5),
        hostPath == null || hostPath.isBlank() ? FALLBACK_PATH : hostPath,
        null,
        Confinement.none());
  }

  public KubeletSettings withTerminationGrace(Duration grace) {
    return new KubeletSettings(dataDir, grace, processPath, apiServerUrl, confinement);
  }

  public KubeletSettings withApiServerUrl(String url) {
    return new KubeletSettings(dataDir, terminationGrace, processPath, url, confinement);
  }

  public KubeletSettings withConfinement(Confinement confinement) {
    return new KubeletSettings(dataDir, terminationGrace, processPath, apiServerUrl, confinement);
  }
}
