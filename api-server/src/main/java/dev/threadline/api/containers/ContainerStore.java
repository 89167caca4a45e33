package dev.threadline.api.containers;

import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimit;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Container resources: reads from the informer cache, writes through the Kubernetes API (waiting,
 * bounded, until this replica's cache reflects a write). {@code lastActivityAt} is written with a
 * JSON merge patch of that one status field, so it never overwrites what the operator writes.
 */
final class ContainerStore extends CachedResourceStore<Container> {
  ContainerStore(
      KubernetesClient client,
      ManagedInformer<Container> cache,
      Duration visibilityTimeout,
      ObjectLimit limit) {
    super(client, Container.class, cache, visibilityTimeout, limit);
  }

  /**
   * Containers in a namespace, being deleted ones included (they show as stopping). Shared objects.
   */
  @Override
  public List<Container> list(String namespace) {
    return cache.inNamespace(namespace);
  }

  @Override
  public Optional<Container> find(String namespace, String name) {
    return cache.get(namespace, name);
  }

  /** Records a use; a container deleted meanwhile is no error. */
  void recordActivity(String namespace, String name, Instant at) {
    try {
      resources()
          .inNamespace(namespace)
          .withName(name)
          .subresource("status")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"status\":{\"lastActivityAt\":\"" + Timestamps.format(at) + "\"}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }
}
