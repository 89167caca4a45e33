package dev.threadline.operator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.operator.container.ContainerSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxPortsTest {

  @Test
  void onAPodNetworkEveryContainerUsesTheFirstPort() {
    SandboxPorts ports = new SandboxPorts(ContainerSettings.defaults(), port -> false);

    assertThat(ports.allocate("a/one", Map.of("b/two", 8080))).contains(8080);
  }

  @Test
  void onASharedNetworkPortsAreUniqueAndSkipPortsTakenOnTheHost() {
    ContainerSettings shared = ContainerSettings.defaults().sharingNetwork(9000, 9003, "127.0.0.1");
    SandboxPorts ports = new SandboxPorts(shared, port -> port != 9001);
    Map<String, Integer> held = new HashMap<>();
    held.put("ns/held", 9000);
    held.put("ns/a", null);
    held.put("ns/b", null);
    held.put("ns/c", null);

    assertThat(ports.allocate("ns/a", held)).contains(9002);
    // Not yet in any status, but handed out: the next container gets another port.
    assertThat(ports.allocate("ns/b", held)).contains(9003);
    assertThat(ports.allocate("ns/c", held)).isEmpty();
    // Asking again for the same container gives it the same free port back, not a second one.
    held.remove("ns/b");
    assertThat(ports.allocate("ns/c", held)).contains(9003);
  }

  @Test
  void portRangesAreReadFromTheEnvironment() {
    ContainerSettings settings =
        ContainerSettings.fromEnvironment(
            Map.of(
                "THREADLINE_CONTAINER_PORTS",
                "8100-8180",
                "THREADLINE_CONTAINER_SHARED_NETWORK",
                "true",
                "THREADLINE_CONTAINER_BIND_ADDRESS",
                "127.0.0.1"));

    assertThat(settings).isEqualTo(new ContainerSettings(8100, 8180, true, "127.0.0.1"));
    assertThat(ContainerSettings.defaults())
        .isEqualTo(new ContainerSettings(8080, 8180, false, "0.0.0.0"));
  }

  @Test
  void theFileApisCallersAreTheApiServerPodsOfTheReleaseNamespace() {
    ContainerSettings defaults =
        ContainerSettings.fromEnvironment(Map.of("THREADLINE_LEASE_NAMESPACE", "tl-system"));
    assertThat(defaults.apiServerNamespace()).isEqualTo("tl-system");
    assertThat(defaults.apiServerPodLabels())
        .containsExactly(Map.entry("app.kubernetes.io/component", "api-server"));

    ContainerSettings given =
        ContainerSettings.fromEnvironment(
            Map.of(
                "THREADLINE_API_SERVER_NAMESPACE",
                "platform",
                "THREADLINE_LEASE_NAMESPACE",
                "tl-system",
                "THREADLINE_API_SERVER_POD_LABELS",
                "app.kubernetes.io/component=api-server, app.kubernetes.io/instance=tl"));
    assertThat(given.apiServerNamespace()).isEqualTo("platform");
    assertThat(given.apiServerPodLabels())
        .containsOnly(
            Map.entry("app.kubernetes.io/component", "api-server"),
            Map.entry("app.kubernetes.io/instance", "tl"));
    assertThat(given.sharingNetwork(8100, 8180, "127.0.0.1").apiServerPodLabels())
        .isEqualTo(given.apiServerPodLabels());

    assertThatThrownBy(() ->
            ContainerSettings.fromEnvironment(
                Map.of("THREADLINE_API_SERVER_POD_LABELS", "api-server")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("THREADLINE_API_SERVER_POD_LABELS");
  }
}
