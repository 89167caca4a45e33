package dev.threadline.api.health;

import dev.threadline.api.kubernetes.ManagedInformer;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Probes for Kubernetes: readiness ({@code /health}) follows the caches every request is served
 * from, so a replica whose caches are not loaded takes no traffic; liveness ({@code /health/live})
 * only says the process answers, so a slow API server never gets pods restarted. No auth.
 */
@RestController
class HealthController {
  private final List<ManagedInformer<?>> informers;

  HealthController(List<ManagedInformer<?>> informers) {
    this.informers = informers;
  }

  @GetMapping("/health")
  ResponseEntity<HealthReport> readiness() {
    boolean watching = informers.stream().allMatch(ManagedInformer::isWatching);
    boolean synced = informers.stream().allMatch(ManagedInformer::hasSynced);
    HealthReport report = HealthReport.readiness(watching, synced);
    return ResponseEntity.status(report.healthy() ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
        .body(report);
  }

  @GetMapping("/health/live")
  HealthReport liveness() {
    return HealthReport.alive();
  }
}
