package dev.threadline.operator.container;

import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.container.Container;
import dev.threadline.operator.computer.AgentObjects;
import dev.threadline.operator.sandbox.SandboxCredential;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;

/**
 * The container's access token: 32 random bytes in a Secret of its own, mounted into its Pod (the
 * runner checks it) and read by the api-server (which sends it). Made once, never rotated while the
 * container lives; deleted with the container.
 */
final class ContainerAccessSecret {
  private ContainerAccessSecret() {}

  static Secret of(Container container) {
    return SandboxCredential.secret(
        new ObjectMetaBuilder()
            .withName(ContainerObjects.accessSecretName(container.getMetadata().getName()))
            .withNamespace(container.getMetadata().getNamespace())
            .withLabels(ContainerPod.labels(container, "access"))
            .withOwnerReferences(AgentObjects.ownedBy(container))
            .build());
  }
}
