package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.common.OwnerReferences;
import dev.threadline.crds.container.Container;
import dev.threadline.operator.network.ClusterNetwork;
import dev.threadline.operator.network.EgressRules;
import dev.threadline.operator.sandbox.SandboxNetworkPolicy;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;

/**
 * A container's Pod accepts connections only on its file API port and only from the api-server's
 * Pods (the file API's one legitimate caller, which holds the access token); other tenants' Pods
 * and agent code elsewhere cannot even connect. Without internet access (its environment's {@code
 * internetAccess: false}) it may reach DNS and nothing else; with it, DNS and every address outside
 * the cluster's ranges and link-local ({@link EgressRules#internet}).
 */
public final class ContainerNetworkPolicy {
  private ContainerNetworkPolicy() {}

  public static NetworkPolicy of(
      Container container,
      int fileApiPort,
      boolean internetAccess,
      ContainerSettings settings,
      ClusterNetwork network) {
    String name = container.getMetadata().getName();
    return SandboxNetworkPolicy.of(
        new ObjectMetaBuilder()
            .withName(ContainerObjects.networkPolicyName(name))
            .withNamespace(container.getMetadata().getNamespace())
            .withLabels(ContainerPod.labels(container, "network"))
            .withOwnerReferences(OwnerReferences.controller(container))
            .build(),
        ContainerPod.labels(container, ContainerPod.COMPONENT),
        fileApiPort,
        internetAccess,
        network,
        List.of(settings.apiServer()));
  }
}
