package dev.threadline.operator.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EgressRulesTest {
  private static final ClusterNetwork NETWORK =
      ClusterNetwork.fromEnvironment(
          Map.of(
              "THREADLINE_CLUSTER_POD_CIDRS", "10.42.0.0/16, fd42::/48",
              "THREADLINE_CLUSTER_SERVICE_CIDRS", "10.43.0.0/16",
              "THREADLINE_CLUSTER_API_SERVER_CIDRS", "192.0.2.10/32"));

  @Test
  void theInternetLeavesOutLinkLocalTheClustersRangesAndTheApiServerPerAddressFamily() {
    List<NetworkPolicyEgressRule> rules = EgressRules.internet(NETWORK);

    assertThat(rules).hasSize(2);
    assertThat(rules.get(0)).isEqualTo(EgressRules.dns());
    NetworkPolicyEgressRule internet = rules.get(1);
    assertThat(internet.getPorts()).isEmpty();
    assertThat(internet.getTo())
        .extracting(peer -> peer.getIpBlock().getCidr())
        .containsExactly("0.0.0.0/0", "::/0");
    assertThat(except(internet.getTo().get(0)))
        .containsExactly("169.254.0.0/16", "10.42.0.0/16", "10.43.0.0/16", "192.0.2.10/32");
    assertThat(except(internet.getTo().get(1))).containsExactly("fd00:ec2::254/128", "fd42::/48");
  }

  @Test
  void withoutConfiguredRangesLinkLocalIsStillDenied() {
    NetworkPolicyEgressRule internet = EgressRules.internet(ClusterNetwork.none()).get(1);

    assertThat(except(internet.getTo().get(0))).containsExactly("169.254.0.0/16");
    assertThat(except(internet.getTo().get(1))).containsExactly("fd00:ec2::254/128");
  }

  @Test
  void tcpToNamedAddressesAllowsOnlyThoseOnTheGivenPorts() {
    List<NetworkPolicyEgressRule> rules =
        EgressRules.tcpTo(List.of("203.0.113.0/24"), List.of(443), NETWORK);

    assertThat(rules.get(0)).isEqualTo(EgressRules.dns());
    assertThat(rules.get(1).getTo())
        .singleElement()
        .satisfies(peer -> {
          assertThat(peer.getIpBlock().getCidr()).isEqualTo("203.0.113.0/24");
          assertThat(peer.getIpBlock().getExcept()).isNullOrEmpty();
        });
    assertThat(rules.get(1).getPorts())
        .singleElement()
        .satisfies(port -> {
          assertThat(port.getProtocol()).isEqualTo("TCP");
          assertThat(port.getPort().getIntVal()).isEqualTo(443);
        });
  }

  @Test
  void tcpToNoAddressesMeansTheInternetOnThosePorts() {
    NetworkPolicyEgressRule rule = EgressRules.tcpTo(List.of(), List.of(80, 443), NETWORK).get(1);

    assertThat(rule.getTo()).isEqualTo(EgressRules.internet(NETWORK).get(1).getTo());
    assertThat(rule.getPorts()).extracting(p -> p.getPort().getIntVal()).containsExactly(80, 443);
  }

  @Test
  void aRangeThatIsNotACidrIsRefusedNamingItsVariable() {
    assertThatThrownBy(() ->
            ClusterNetwork.fromEnvironment(Map.of("THREADLINE_CLUSTER_POD_CIDRS", "10.42.0.0")))
        .hasMessageContaining("THREADLINE_CLUSTER_POD_CIDRS")
        .hasMessageContaining("10.42.0.0");
    assertThatThrownBy(() ->
            ClusterNetwork.fromEnvironment(
                Map.of("THREADLINE_CLUSTER_SERVICE_CIDRS", "300.1.1.1/8")))
        .hasMessageContaining("THREADLINE_CLUSTER_SERVICE_CIDRS");
  }

  private static List<String> except(NetworkPolicyPeer peer) {
    return peer.getIpBlock().getExcept();
  }
}
