package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.limits.ResourceControl;
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
 * @param apiAccess how a Pod that asks for a service-account token ({@code
 *     automountServiceAccountToken: true}) reaches the Kubernetes API; null for none. Pods that do
 *     not ask explicitly get nothing.
 * @param confinement how sandbox processes are confined: every Pod that does not ask for API access
 *     (agent and container Pods, image builds) runs under bubblewrap when it is available
 * @param resources how every container is held to its {@code resources.limits} and {@code
 *     podPidsLimit} (cgroups, rlimits or nothing)
 * @param podPidsLimit the processes and threads one container may have at once, as a cluster's
 *     kubelet's {@code podPidsLimit}: {@value #PIDS_VARIABLE}, default {@value #DEFAULT_PIDS}
 */
public record KubeletSettings(
    Path dataDir,
    Duration terminationGrace,
    String processPath,
    ApiAccess apiAccess,
    Confinement confinement,
    ResourceControl resources,
    long podPidsLimit) {
  public static final String PIDS_VARIABLE = "THREADLINE_LOCAL_POD_PIDS_LIMIT";
  public static final long DEFAULT_PIDS = 1024;

  /**
   * What a real kubelet mounts as the service-account token, given as the variables fabric8 clients
   * read: {@code KUBERNETES_MASTER}, {@code KUBERNETES_CERTS_CA_DATA} and {@code
   * KUBERNETES_AUTH_TOKEN}.
   *
   * @param url the API's address
   * @param caCertificateData the API's TLS certificate, base64 PEM
   * @param tokens issues a Pod's token for its namespace and service account
   */
  public record ApiAccess(String url, String caCertificateData, ServiceAccountTokens tokens) {
    public ApiAccess {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(caCertificateData, "caCertificateData");
      Objects.requireNonNull(tokens, "tokens");
    }
  }

  /** Issues a bearer token that authenticates as a namespace's service account. */
  @FunctionalInterface
  public interface ServiceAccountTokens {
    String issue(String namespace, String serviceAccount);
  }

  private static final String FALLBACK_PATH =
      "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  public KubeletSettings {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(terminationGrace, "terminationGrace");
    Objects.requireNonNull(processPath, "processPath");
    Objects.requireNonNull(confinement, "confinement");
    Objects.requireNonNull(resources, "resources");
    if (podPidsLimit < 1) {
      throw new IllegalArgumentException(
          PIDS_VARIABLE + " must be at least 1, got " + podPidsLimit);
    }
    if (terminationGrace.isNegative()) {
      throw new IllegalArgumentException("terminationGrace must not be negative");
    }
  }

  /**
   * The host's PATH (so installed tools are found), a grace period of 5 seconds, no confinement
   * (see {@link #withConfinement}) and no resource bounds (see {@link #withResources}).
   */
  public static KubeletSettings of(Path dataDir) {
    String hostPath = System.getenv("PATH");
    return new KubeletSettings(
        dataDir.toAbsolutePath(),
        Duration.ofSeconds(5),
        hostPath == null || hostPath.isBlank() ? FALLBACK_PATH : hostPath,
        null,
        Confinement.none(),
        ResourceControl.none("none configured"),
        DEFAULT_PIDS);
  }

  public KubeletSettings withTerminationGrace(Duration grace) {
    return new KubeletSettings(
        dataDir, grace, processPath, apiAccess, confinement, resources, podPidsLimit);
  }

  /** How Pods that mount a service-account token reach the API. */
  public KubeletSettings withApiAccess(ApiAccess access) {
    return new KubeletSettings(
        dataDir, terminationGrace, processPath, access, confinement, resources, podPidsLimit);
  }

  public KubeletSettings withConfinement(Confinement confinement) {
    return new KubeletSettings(
        dataDir, terminationGrace, processPath, apiAccess, confinement, resources, podPidsLimit);
  }

  /** How containers are held to their limits, with at most {@code pids} processes each. */
  public KubeletSettings withResources(ResourceControl resources, long pids) {
    return new KubeletSettings(
        dataDir, terminationGrace, processPath, apiAccess, confinement, resources, pids);
  }
}
