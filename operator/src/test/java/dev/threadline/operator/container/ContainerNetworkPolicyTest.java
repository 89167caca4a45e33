package dev.threadline.operator.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.threadline.crds.container.Container;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import dev.threadline.operator.support.SandboxPolicies;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerNetworkPolicyTest {
  private static final ContainerSettings SETTINGS =
      ContainerSettings.fromEnvironment(
          Map.of(
              "THREADLINE_API_SERVER_NAMESPACE",
              "tl-system",
              "THREADLINE_API_SERVER_POD_LABELS",
              "app=api"));
  private static final ClusterNetwork NETWORK =
      new ClusterNetwork(List.of("10.42.0.0/16"), List.of(), List.of());

  @Test
  void withoutInternetAccessOnlyDnsGoesOut() {
    NetworkPolicy policy = ContainerNetworkPolicy.of(container(), 8123, false, SETTINGS, NETWORK);

    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(policy.getSpec().getEgress())
        .singleElement()
        .satisfies(rule -> {
          assertThat(rule.getTo()).isEmpty();
          assertThat(rule.getPorts())
              .allSatisfy(port -> assertThat(port.getPort().getIntVal()).isEqualTo(53));
        });
    SandboxPolicies.admitsOnly(policy, 8123, "tl-system", Map.entry("app", "api"));
  }

  @Test
  void withInternetAccessEgressStillLeavesOutTheClusterAndLinkLocal() {
    NetworkPolicy policy = ContainerNetworkPolicy.of(container(), 8080, true, SETTINGS, NETWORK);

    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(policy.getSpec().getEgress()).isEqualTo(EgressRules.internet(NETWORK));
    assertThat(policy.getSpec().getEgress().get(1).getTo())
        .extracting(peer -> peer.getIpBlock().getCidr(), peer -> peer.getIpBlock().getExcept())
        .containsExactly(
            tuple("0.0.0.0/0", List.of("169.254.0.0/16", "10.42.0.0/16")),
            tuple("::/0", List.of("fd00:ec2::254/128")));
    assertThat(policy.getMetadata().getName()).isEqualTo("ctr-a");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .containsEntry("threadline.dev/container", "ctr-a");
  }

  private static Container container() {
    Container container = new Container();
    container.setMetadata(
        new ObjectMetaBuilder().withName("ctr-a").withNamespace("alice").withUid("u-1").build());
    return container;
  }
}
