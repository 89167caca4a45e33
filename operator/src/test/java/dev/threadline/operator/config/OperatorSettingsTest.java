package dev.threadline.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.environment.ImageDefaults;
import dev.threadline.core.network.AllowedTargets;
import dev.threadline.operator.webhooks.RetrySchedule;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {
  @Test
  void defaultsWhenNothingIsSet() {
    OperatorSettings settings = OperatorSettings.fromEnvironment(Map.of());
    assertThat(settings.watchNamespaces()).isEmpty();
    assertThat(settings.runnerImage()).isEqualTo(ImageDefaults.RUNNER_IMAGE);
    assertThat(settings.triggerImage()).isEqualTo(OperatorSettings.DEFAULT_TRIGGER_IMAGE);
    assertThat(settings.buildTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(settings.leaderElection()).isFalse();
    assertThat(settings.healthPort()).isEqualTo(-1);
    assertThat(settings.webhooks().allowedTargets()).isEqualTo(AllowedTargets.PUBLIC);
    assertThat(settings.webhooks().retries()).isEqualTo(RetrySchedule.DEFAULT);
    assertThat(settings.webhooks().retries().delays())
        .containsExactly(
            Duration.ofSeconds(10),
            Duration.ofSeconds(40),
            Duration.ofSeconds(160),
            Duration.ofSeconds(640));
    assertThat(settings.webhooks().retention()).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void theTriggerImageIsConfiguredApartFromTheRunnerImage() {
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_RUNNER_IMAGE", "example.test/runner:2",
                "THREADLINE_TRIGGER_IMAGE", "example.test/trigger:2"));
    assertThat(settings.runnerImage()).isEqualTo("example.test/runner:2");
    assertThat(settings.triggerImage()).isEqualTo("example.test/trigger:2");
  }

  @Test
  void readsWebhookDeliverySettings() {
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_WEBHOOK_ALLOWED_TARGETS", "private",
                "THREADLINE_WEBHOOK_RETRY_DELAYS", "50ms, 2s,5m,1h",
                "THREADLINE_WEBHOOK_RETENTION", "36h"));
    assertThat(settings.webhooks().allowedTargets()).isEqualTo(AllowedTargets.PRIVATE);
    assertThat(settings.webhooks().retries().delays())
        .containsExactly(
            Duration.ofMillis(50),
            Duration.ofSeconds(2),
            Duration.ofMinutes(5),
            Duration.ofHours(1));
    assertThat(settings.webhooks().retention()).isEqualTo(Duration.ofHours(36));
    assertThat(
            OperatorSettings.fromEnvironment(Map.of("THREADLINE_WEBHOOK_RETRY_DELAYS", "none"))
                .webhooks()
                .retries()
                .delays())
        .isEmpty();
    assertThat(settings.withHealthPort(0).webhooks()).isEqualTo(settings.webhooks());
  }

  @Test
  void rejectsMalformedWebhookDurationsNamingTheVariable() {
    for (var entry :
        List.of(
            Map.entry("THREADLINE_WEBHOOK_RETRY_DELAYS", "10s,soon"),
            Map.entry("THREADLINE_WEBHOOK_RETRY_DELAYS", "10"),
            Map.entry("THREADLINE_WEBHOOK_RETRY_DELAYS", "0s"),
            Map.entry("THREADLINE_WEBHOOK_RETENTION", "7 days"))) {
      assertThatThrownBy(() -> OperatorSettings.fromEnvironment(Map.ofEntries(entry)))
          .as(entry.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(entry.getKey());
    }
  }

  @Test
  void readsEnvironmentVariables() {
    OperatorSettings settings =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_WATCH_NAMESPACES", "alice, bob,,",
                "THREADLINE_REGISTRY", "registry.example.com/tl",
                "THREADLINE_BUILD_TIMEOUT_SECONDS", "600",
                "THREADLINE_LEADER_ELECTION", "true",
                "POD_NAMESPACE", "tl-system",
                "THREADLINE_OPERATOR_HEALTH_PORT", "8081"));
    assertThat(settings.watchNamespaces()).containsExactlyInAnyOrder("alice", "bob");
    assertThat(settings.registry()).isEqualTo("registry.example.com/tl");
    assertThat(settings.buildTimeout()).isEqualTo(Duration.ofSeconds(600));
    assertThat(settings.leaderElection()).isTrue();
    assertThat(settings.leaseNamespace()).isEqualTo("tl-system");
    assertThat(settings.healthPort()).isEqualTo(8081);
  }

  @Test
  void rejectsMalformedNumbersNamingTheVariable() {
    assertThatThrownBy(() ->
            OperatorSettings.fromEnvironment(Map.of("THREADLINE_BUILD_TIMEOUT_SECONDS", "soon")))
        .hasMessageContaining("THREADLINE_BUILD_TIMEOUT_SECONDS");
  }

  @Test
  void reconcileThreadsAndWorkerLoopsAreSettingsWithBounds() {
    OperatorSettings defaults = OperatorSettings.fromEnvironment(Map.of());
    assertThat(defaults.reconcileThreads()).isEqualTo(64);
    assertThat(defaults.worker().maxLoops()).isEqualTo(1000);

    OperatorSettings set =
        OperatorSettings.fromEnvironment(
            Map.of(
                "THREADLINE_OPERATOR_RECONCILE_THREADS", "8",
                "THREADLINE_OPERATOR_WORKER_LOOPS", "200"));
    assertThat(set.reconcileThreads()).isEqualTo(8);
    assertThat(set.worker().maxLoops()).isEqualTo(200);

    for (String bad : List.of("0", "-3", "1025", "many", "99999999999")) {
      assertThatThrownBy(() ->
              OperatorSettings.fromEnvironment(
                  Map.of("THREADLINE_OPERATOR_RECONCILE_THREADS", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("THREADLINE_OPERATOR_RECONCILE_THREADS")
          .hasMessageContaining(bad);
    }
    for (String bad : List.of("0", "100001", "1.5")) {
      assertThatThrownBy(() ->
              OperatorSettings.fromEnvironment(Map.of("THREADLINE_OPERATOR_WORKER_LOOPS", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("THREADLINE_OPERATOR_WORKER_LOOPS")
          .hasMessageContaining(bad);
    }
  }
}
