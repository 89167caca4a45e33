package dev.threadline.operator.sandbox;

import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import java.util.List;
import java.util.Map;

/**
 * A sandbox Pod accepts connections only on its API port and only from its callers' Pods (the
 * worker for a run, the api-server for a container), which hold its credential; other tenants' Pods
 * and agent code elsewhere cannot even connect. Without internet access (its environment's {@code
 * internetAccess: false}) it may reach DNS and nothing else; with it, DNS and every address outside
 * the cluster's ranges and link-local ({@link EgressRules#internet}).
 */
public final class SandboxNetworkPolicy {
  private static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

  private SandboxNetworkPolicy() {}

  /**
   * @param metadata the policy's name, namespace, labels and owner
   * @param sandboxLabels the labels that select the sandbox Pod
   */
  public static NetworkPolicy of(
      ObjectMeta metadata,
      Map<String, String> sandboxLabels,
      int port,
      boolean internetAccess,
      ClusterNetwork network,
      List<SandboxCallers> callers) {
    List<NetworkPolicyEgressRule> egress =
        internetAccess ? EgressRules.internet(network) : List.of(EgressRules.dns());
    List<NetworkPolicyPeer> from =
        callers.stream()
            .map(caller ->
                new NetworkPolicyPeerBuilder()
                    .withNewNamespaceSelector()
                    .addToMatchLabels(NAMESPACE_NAME_LABEL, caller.namespace())
                    .endNamespaceSelector()
                    .withNewPodSelector()
                    .addToMatchLabels(caller.podLabels())
                    .endPodSelector()
                    .build())
            .toList();
    return new NetworkPolicyBuilder()
        .withMetadata(metadata)
        .withNewSpec()
        .withNewPodSelector()
        .addToMatchLabels(sandboxLabels)
        .endPodSelector()
        .withPolicyTypes("Ingress", "Egress")
        .addNewIngress()
        .withFrom(from)
        .addNewPort()
        .withProtocol("TCP")
        .withPort(new IntOrString(port))
        .endPort()
        .endIngress()
        .withEgress(egress)
        .endSpec()
        .build();
  }
}
