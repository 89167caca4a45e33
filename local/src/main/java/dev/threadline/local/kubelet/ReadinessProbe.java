package dev.threadline.local.kubelet;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.containers.SandboxProof;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A container's {@code httpGet} readiness probe, run against the host's loopback (every process
 * shares the host's network): the container counts as ready once the path answers 2xx, as a kubelet
 * would say. Without it a Pod whose process had just started counted as ready while its server was
 * still starting, and the first caller paid the wait (a warm-pool sandbox claimed moments after its
 * start). Probed often, not every {@code periodSeconds}: readiness gates work.
 *
 * <p>On a shared network a port may be answered by another process (another local mode's sandbox
 * holding it): a Pod annotated {@value SandboxProof#READINESS_ANNOTATION} ({@code <volume>/<key>}
 * of its mounted credential) is ready only once the answer proves that credential for a fresh
 * challenge ({@link SandboxProof}); a foreign answer never makes it ready, and its own process,
 * which cannot listen, ends the Pod with its error.
 */
final class ReadinessProbe {
  private static final Duration PAUSE = Duration.ofMillis(20);
  private static final int TIMEOUT_MS = 1000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI target;
  private final Path credential;

  private ReadinessProbe(URI target, Path credential) {
    this.target = target;
    this.credential = credential;
  }

  /**
   * The container's probe, when it has an {@code httpGet} one on a numbered port.
   *
   * @param hostVolumes the Pod's volumes as materialized on the host, by name
   */
  static Optional<ReadinessProbe> of(Container container, Pod pod, Map<String, Path> hostVolumes) {
    Probe probe = container.getReadinessProbe();
    HTTPGetAction get = probe == null ? null : probe.getHttpGet();
    if (get == null || get.getPort() == null || get.getPort().getIntVal() == null) {
      return Optional.empty();
    }
    String path = get.getPath() == null || get.getPath().isEmpty() ? "/" : get.getPath();
    return Optional.of(
        new ReadinessProbe(
            URI.create("http://127.0.0.1:" + get.getPort().getIntVal() + path),
            provedCredential(pod, hostVolumes)));
  }

  /** The host file of the credential the Pod's answer must prove; null when it asks for none. */
  private static Path provedCredential(Pod pod, Map<String, Path> hostVolumes) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String reference =
        annotations == null ? null : annotations.get(SandboxProof.READINESS_ANNOTATION);
    int slash = reference == null ? -1 : reference.indexOf('/');
    if (slash <= 0) {
      return null;
    }
    Path volume = hostVolumes.get(reference.substring(0, slash));
    return volume == null ? null : volume.resolve(reference.substring(slash + 1));
  }

  /** Probes until the target answers 2xx (true) or {@code running} turns false (false). */
  boolean await(BooleanSupplier running) throws InterruptedException {
    while (running.getAsBoolean()) {
      if (succeeds()) {
        return true;
      }
      Thread.sleep(PAUSE);
    }
    return false;
  }

  private boolean succeeds() {
    String challenge = credential == null ? null : SandboxProof.challenge();
    URI probed =
        challenge == null
            ? target
            : URI.create(
                target
                    + (target.getRawQuery() == null ? "?" : "&")
                    + SandboxProof.CHALLENGE
                    + "="
                    + challenge);
    try {
      HttpURLConnection connection = (HttpURLConnection) probed.toURL().openConnection();
      connection.setConnectTimeout(TIMEOUT_MS);
      connection.setReadTimeout(TIMEOUT_MS);
      try {
        int status = connection.getResponseCode();
        if (status < 200 || status >= 300) {
          return false;
        }
        if (challenge == null) {
          return true;
        }
        String proof;
        try (InputStream body = connection.getInputStream()) {
          proof = JSON.readTree(body).path(SandboxProof.PROOF).asText(null);
        }
        return SandboxProof.proves(Files.readString(credential), challenge, proof);
      } finally {
        connection.disconnect();
      }
    } catch (IOException notYet) {
      return false; // not listening yet, not JSON, or the credential's file is not there yet
    }
  }
}
