package dev.threadline.operator.container;

import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerStatus;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
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
    StatusWriteLoop.Outcome<Container> outcome =
        StatusWriteLoop.write(
            client,
            container,
            ATTEMPTS,
            code -> code == 409 || code == 404,
            () ->
                client
                    .resources(Container.class)
                    .inNamespace(container.getMetadata().getNamespace())
                    .withName(container.getMetadata().getName())
                    .get(),
            next -> {
              ContainerStatus status =
                  next.getStatus() == null ? new ContainerStatus() : next.getStatus();
              next.setStatus(status);
              return change.test(status);
            });
    return switch (outcome) {
      case StatusWriteLoop.Written<Container>(Container written, Container base) -> {
        context
            .eventSourceRetriever()
            .getControllerEventSource()
            .handleRecentResourceUpdate(ResourceID.fromResource(written), written, base);
        yield Optional.of(written);
      }
      case StatusWriteLoop.Unchanged<Container>(Container current) -> Optional.of(current);
      case StatusWriteLoop.Gone<Container> gone -> Optional.empty();
    };
  }
}
