package dev.threadline.api.health;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body of the health endpoints: {@code {status, checks}}. {@code status} is {@code ok} only
 * when every check passes; a failing check shows its own value.
 */
public record HealthReport(
    String status, @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> checks) {
  public static final String OK = "ok";
  public static final String UNAVAILABLE = "unavailable";

  /** Liveness: the process answers; nothing else is checked. */
  public static HealthReport alive() {
    return new HealthReport(OK, null);
  }

  /**
   * Readiness from the state of the Kubernetes connection and the caches.
   *
   * @param kubernetesUp every informer's watch is connected
   * @param informersSynced every informer has completed its initial list
   */
  public static HealthReport readiness(boolean kubernetesUp, boolean informersSynced) {
    Map<String, String> checks = new LinkedHashMap<>();
    checks.put("kubernetes", kubernetesUp ? "up" : "down");
    checks.put("informers", informersSynced ? "synced" : "syncing");
    return new HealthReport(kubernetesUp && informersSynced ? OK : UNAVAILABLE, checks);
  }

  /** Whether every check passed (not a JSON property). */
  public boolean healthy() {
    return OK.equals(status);
  }
}
