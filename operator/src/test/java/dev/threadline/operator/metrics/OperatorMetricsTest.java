package dev.threadline.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.webhook.WebhookDeliveryState;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OperatorMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final OperatorMetrics metrics = new OperatorMetrics(registry);

  @Test
  void aFinishedRunIsCountedByRouteAndPhaseWithItsDuration() {
    metrics.runFinished(run("computer", "completed", "2026-11-26T03:00:00Z"));
    metrics.runFinished(run("direct", "failed", "2026-11-26T03:00:02Z"));

    Timer computer =
        registry
            .find("threadline_run_duration")
            .tags("route", "computer", "phase", "completed")
            .timer();
    assertThat(computer.count()).isEqualTo(1);
    assertThat(computer.totalTime(TimeUnit.SECONDS)).isEqualTo(90.0);
    assertThat(
            registry
                .find("threadline_runs_finished")
                .tags("route", "direct", "phase", "failed")
                .counter()
                .count())
        .isEqualTo(1);
  }

  @Test
  void aRunWithoutACompletionTimeIsCountedButNotTimed() {
    metrics.runFinished(run("direct", "cancelled", null));

    assertThat(registry.find("threadline_runs_finished").counter().count()).isEqualTo(1);
    assertThat(registry.find("threadline_run_duration").timer()).isNull();
  }

  @Test
  void buildsAndWebhookAttemptsAreRecordedByOutcome() {
    metrics.buildFinished("image", "ready", Duration.ofSeconds(42));
    metrics.webhookAttempted(WebhookDeliveryState.PENDING);

    assertThat(
            registry
                .find("threadline_build_duration")
                .tags("kind", "image", "outcome", "ready")
                .timer()
                .totalTime(TimeUnit.SECONDS))
        .isEqualTo(42.0);
    assertThat(
            registry
                .find("threadline_webhook_deliveries")
                .tag("outcome", "pending")
                .counter()
                .count())
        .isEqualTo(1);
  }

  private static Run run(String route, String phase, String completedAt) {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName("run-1")
            .withNamespace("ns")
            .withCreationTimestamp("2026-11-26T02:58:30Z")
            .build());
    RunStatus status = new RunStatus();
    status.setRoute(route);
    status.setPhase(phase);
    status.setCompletedAt(completedAt);
    run.setStatus(status);
    return run;
  }
}
