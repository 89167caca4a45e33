package dev.threadline.local.kubelet.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EgressPolicyTest {
  private static final Map<String, String> RUN = Map.of("threadline.dev/run", "r1");

  @Test
  void noPolicyOrAnIngressOnlyPolicyLeavesTheNetwork() {
    assertThat(EgressPolicy.allowsEgress(RUN, List.of())).isTrue();
    assertThat(EgressPolicy.allowsEgress(RUN, List.of(policy(List.of("Ingress"), null)))).isTrue();
  }

  @Test
  void egressWithNoRuleOrDnsOnlyTakesTheNetworkAway() {
    assertThat(EgressPolicy.allowsEgress(RUN, List.of(policy(List.of("Egress"), null)))).isFalse();
    assertThat(EgressPolicy.allowsEgress(RUN, List.of(policy(List.of("Ingress", "Egress"), 53))))
        .isFalse();
  }

  @Test
  void anyPortBeyondDnsKeepsTheNetwork() {
    assertThat(EgressPolicy.allowsEgress(RUN, List.of(policy(List.of("Egress"), 443)))).isTrue();
  }

  @Test
  void aPolicyForOtherPodsDoesNotApply() {
    NetworkPolicy other =
        new NetworkPolicyBuilder(policy(List.of("Egress"), null))
            .editSpec()
            .editPodSelector()
            .withMatchLabels(Map.of("threadline.dev/run", "r2"))
            .endPodSelector()
            .endSpec()
            .build();

    assertThat(EgressPolicy.allowsEgress(RUN, List.of(other))).isTrue();
    assertThat(EgressPolicy.allowsEgress(Map.of("threadline.dev/run", "r2"), List.of(other)))
        .isFalse();
  }

  private static NetworkPolicy policy(List<String> types, Integer port) {
    NetworkPolicyBuilder policy =
        new NetworkPolicyBuilder()
            .withNewMetadata()
            .withName("p")
            .endMetadata()
            .withNewSpec()
            .withNewPodSelector()
            .withMatchLabels(RUN)
            .endPodSelector()
            .withPolicyTypes(types)
            .endSpec();
    if (port != null) {
      policy
          .editSpec()
          .addNewEgress()
          .addNewPort()
          .withProtocol("TCP")
          .withPort(new IntOrString(port))
          .endPort()
          .endEgress()
          .endSpec();
    }
    return policy.build();
  }
}
