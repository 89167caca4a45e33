package dev.threadline.local.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.Probe;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A container's {@code httpGet} readiness probe, run against the host's loopback (every process
 * shares the host's network): the container counts as ready once the path answers 2xx, as a kubelet
 * would say. Without it a Pod whose process had just started counted as ready while its server was
 * still starting, and the first caller paid the wait (a warm-pool sandbox claimed moments after its
 * start). Probed often, not every {@code periodSeconds}: readiness gates work.
 */
final class ReadinessProbe {
  private static final Duration PAUSE = Duration.ofMillis(20);
  private static final int TIMEOUT_MS = 1000;

  private final URI target;

  private ReadinessProbe(URI target) {
    this.target = target;
  }

  /** The container's probe, when it has an {@code httpGet} one on a numbered port. */
  static Optional<ReadinessProbe> of(Container container) {
    Probe probe = container.getReadinessProbe();
    HTTPGetAction get = probe == null ? null : probe.getHttpGet();
    if (get == null || get.getPort() == null || get.getPort().getIntVal() == null) {
      return Optional.empty();
    }
    String path = get.getPath() == null || get.getPath().isEmpty() ? "/" : get.getPath();
    return Optional.of(
        new ReadinessProbe(URI.create("http://127.0.0.1:" + get.getPort().getIntVal() + path)));
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
    try {
      HttpURLConnection connection = (HttpURLConnection) target.toURL().openConnection();
      connection.setConnectTimeout(TIMEOUT_MS);
      connection.setReadTimeout(TIMEOUT_MS);
      try {
        int status = connection.getResponseCode();
        return status >= 200 && status < 300;
      } finally {
        connection.disconnect();
      }
    } catch (IOException notYet) {
      return false;
    }
  }
}
