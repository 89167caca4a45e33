package dev.threadline.local.kubelet;

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
 */
public record KubeletSettings(Path dataDir, Duration terminationGrace, String processPath) {
  private static final String FALLBACK_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  public KubeletSettings {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(terminationGrace, "terminationGrace");
    Objects.requireNonNull(processPath, "processPath");
    if (terminationGrace.isNegative()) {
      throw new IllegalArgumentException("terminationGrace must not be negative");
    }
  }

  /** The host's PATH (so installed tools are found) and a grace period of 5 seconds. */
  public static KubeletSettings of(Path dataDir) {
    String hostPath = System.getenv("PATH");
    return new KubeletSettings(
        dataDir.toAbsolutePath(), Duration.ofSeconds(5), hostPath == null || hostPath.isBlank() ? FALLBACK_PATH : hostPath);
  }

  public KubeletSettings withTerminationGrace(Duration grace) {
    return new KubeletSettings(dataDir, grace, processPath);
  }
}
