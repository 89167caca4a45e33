package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Writes a Container's status with optimistic locking, so that the api-server's {@code
 * lastActivityAt} (written by merge patch in between) is never overwritten by an older copy: on a
 * conflict the Container is read again and the change re-applied. The written Container goes into
 * the controller's cache at once.
 */
final class ContainerStatusWriter {
  private static final int ATTEMPTS = 5;

  private final KubernetesClient client;

  ContainerStatusWriter(KubernetesClient client) {
    this.client = client;
  }

  /**
   * @param change edits the status in place; returns false when there is nothing to write
   * @return the Container as written (or as it was, when nothing changed); empty when it is gone
   */
  Optional<Container> write(
      Container container, Context<Container> context, Predicate<ContainerStatus> change) {
    Container base = container;
    for (int attempt = 1; ; attempt++) {
      Container next = client.getKubernetesSerialization().clone(base);
      ContainerStatus status = next.getStatus() == null ? new ContainerStatus() : next.getStatus();
      next.setStatus(status);
      if (!change.test(status)) {
        return Optional.of(base);
      }
      try {
        Container written = client.resource(next).updateStatus();
        context
            .eventSourceRetriever()
            .getControllerEventSource()
            .handleRecentResourceUpdate(ResourceID.fromResource(written), written, base);
        return Optional.of(written);
      } catch (KubernetesClientException e) {
        if ((e.getCode() != 409 && e.getCode() != 404) || attempt == ATTEMPTS) {
          throw e;
        }
        base =
            client
                .resources(Container.class)
                .inNamespace(container.getMetadata().getNamespace())
                .withName(container.getMetadata().getName())
                .get();
        if (base == null) {
          return Optional.empty();
        }
      }
    }
  }
}
