package dev.threadline.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {
  @Test
  void defaultsWhenNothingIsSet() {
    OperatorSettings settings = OperatorSettings.fromEnvironment(Map.of());
    assertThat(settings.watchNamespaces()).isEmpty();
    assertThat(settings.runnerImage()).isEqualTo(OperatorSettings.DEFAULT_RUNNER_IMAGE);
    assertThat(settings.buildTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(settings.leaderElection()).isFalse();
    assertThat(settings.healthPort()).isEqualTo(-1);
  }

  @Test
  void readsEnvironmentVariables() {
    OperatorSettings settings = OperatorSettings.fromEnvironment(Map.of(
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
    assertThatThrownBy(() -> OperatorSettings.fromEnvironment(Map.of("THREADLINE_BUILD_TIMEOUT_SECONDS", "soon")))
        .hasMessageContaining("THREADLINE_BUILD_TIMEOUT_SECONDS");
  }
}
