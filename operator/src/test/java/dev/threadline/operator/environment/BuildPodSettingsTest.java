package dev.threadline.operator.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuildPodSettingsTest {
  @Test
  void defaultsAllowOfficialImagesAndPushWithoutALayerCache() {
    BuildPodSettings settings = BuildPodSettings.defaults();

    assertThat(settings.allowedImages()).containsExactly("docker.io/library/*");
    assertThat(settings.layerCache()).isFalse();
    assertThat(settings.pusherImage()).isEqualTo(BuildPodSettings.DEFAULT_PUSHER_IMAGE);
    assertThat(settings.egressCidrs()).isEmpty();
    assertThat(settings.egressPorts()).containsExactly(80, 443);
    assertThat(settings.resources().getLimits())
        .containsEntry("ephemeral-storage", new Quantity("10Gi"))
        .containsEntry("memory", new Quantity("4Gi"));
  }

  @Test
  void readsTheChartsVariables() {
    BuildPodSettings settings =
        BuildPodSettings.fromEnvironment(
            Map.of(
                "THREADLINE_BUILD_ALLOWED_IMAGES", "registry.example.com/base/*, python",
                "THREADLINE_BUILD_EGRESS_CIDRS", "203.0.113.0/24",
                "THREADLINE_BUILD_EGRESS_PORTS", "443",
                "THREADLINE_BUILD_LAYER_CACHE", "true",
                "THREADLINE_BUILD_EPHEMERAL_STORAGE_LIMIT", "20Gi"));

    assertThat(settings.allowedImages()).containsExactly("registry.example.com/base/*", "python");
    assertThat(settings.egressCidrs()).containsExactly("203.0.113.0/24");
    assertThat(settings.egressPorts()).containsExactly(443);
    assertThat(settings.layerCache()).isTrue();
    assertThat(settings.ephemeralStorageLimit()).isEqualTo(new Quantity("20Gi"));
  }

  @Test
  void badValuesAreRefusedNamingTheirVariable() {
    for (var entry :
        List.of(
            Map.entry("THREADLINE_BUILD_EGRESS_PORTS", "443,https"),
            Map.entry("THREADLINE_BUILD_EGRESS_PORTS", "70000"),
            Map.entry("THREADLINE_BUILD_EGRESS_CIDRS", "registry.example.com"),
            Map.entry("THREADLINE_BUILD_MEMORY_LIMIT", "lots"))) {
      assertThatThrownBy(() -> BuildPodSettings.fromEnvironment(Map.ofEntries(entry)))
          .as(entry.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(entry.getKey());
    }
  }
}
