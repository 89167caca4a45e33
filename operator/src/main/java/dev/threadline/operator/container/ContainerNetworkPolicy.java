package dev.threadline.operator.container;

import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerObjects;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import java.util.List;
import java.util.Map;

/**
 * A container's Pod accepts connections only on its file API port and only from the api-server's
 * Pods (the file API's one legitimate caller, which holds the access token); other tenants' Pods
 * and agent code elsewhere cannot even connect. Without internet access (its environment's {@code
 * internetAccess: false}) it may reach DNS and nothing else; with it, DNS and every address outside
 * the cluster's ranges and link-local ({@link EgressRules#internet}).
 */
public final class ContainerNetworkPolicy {
  private static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

  private ContainerNetworkPolicy() {}

  public static NetworkPolicy of(
      Container container,
      int fileApiPort,
      boolean internetAccess,
      ContainerSettings settings,
      ClusterNetwork network) {
    String name = container.getMetadata().getName();
    List<NetworkPolicyEgressRule> egress =
        internetAccess ? EgressRules.internet(network) : List.of(EgressRules.dns());
    return new NetworkPolicyBuilder()
        .withNewMetadata()
        .withName(ContainerObjects.networkPolicyName(name))
        .withNamespace(container.getMetadata().getNamespace())
        .withLabels(ContainerPod.labels(container, "network"))
        .withOwnerReferences(OwnerReferences.controller(container))
        .endMetadata()
        .withNewSpec()
        .withNewPodSelector()
        .addToMatchLabels(ContainerPod.labels(container, ContainerPod.COMPONENT))
        .endPodSelector()
        .withPolicyTypes("Ingress", "Egress")
        .addNewIngress()
        .addNewFrom()
        .withNewNamespaceSelector()
        .addToMatchLabels(NAMESPACE_NAME_LABEL, settings.apiServerNamespace())
        .endNamespaceSelector()
        .withNewPodSelector()
        .addToMatchLabels(Map.copyOf(settings.apiServerPodLabels()))
        .endPodSelector()
        .endFrom()
        .addNewPort()
        .withProtocol("TCP")
        .withPort(new IntOrString(fileApiPort))
        .endPort()
        .endIngress()
        .withEgress(egress)
        .endSpec()
        .build();
  }
}
