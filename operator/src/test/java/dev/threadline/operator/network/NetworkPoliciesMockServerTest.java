package dev.threadline.operator.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class NetworkPoliciesMockServerTest {
  static KubernetesClient client;

  @Test
  void anOlderPolicyGetsTheCurrentRulesAndAnUpToDateOneIsLeftAlone() {
    // What an older operator made for a container with internet access: ingress rules only.
    client.resource(policy(List.of("Ingress"), List.of())).create();
    NetworkPolicy desired = desired();

    NetworkPolicy updated = NetworkPolicies.ensure(client, desired);

    assertThat(updated.getSpec()).isEqualTo(desired.getSpec());
    NetworkPolicy stored = get();
    assertThat(stored.getSpec()).isEqualTo(desired.getSpec());
    String version = stored.getMetadata().getResourceVersion();

    NetworkPolicies.ensure(client, desired());

    assertThat(get().getMetadata().getResourceVersion()).isEqualTo(version);
  }

  private static NetworkPolicy get() {
    return client.network().v1().networkPolicies().inNamespace("alice").withName("ctr-a").get();
  }

  private static NetworkPolicy desired() {
    return policy(
        List.of("Ingress", "Egress"),
        EgressRules.internet(new ClusterNetwork(List.of("10.0.0.0/8"), List.of(), List.of())));
  }

  private static NetworkPolicy policy(List<String> types, List<NetworkPolicyEgressRule> egress) {
    return new NetworkPolicyBuilder()
        .withNewMetadata()
        .withName("ctr-a")
        .withNamespace("alice")
        .endMetadata()
        .withNewSpec()
        .withNewPodSelector()
        .addToMatchLabels("threadline.dev/container", "ctr-a")
        .endPodSelector()
        .withPolicyTypes(types)
        .withEgress(egress)
        .endSpec()
        .build();
  }
}
