package dev.threadline.api.containers;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Container resources: reads from the informer cache, writes through the Kubernetes API (waiting,
 * bounded, until this replica's cache reflects a write). {@code lastActivityAt} is written with a
 * JSON merge patch of that one status field, so it never overwrites what the operator writes.
 */
final class ContainerStore {
  private static final Logger log = LoggerFactory.getLogger(ContainerStore.class);
  private static final int UPDATE_ATTEMPTS = 3;

  private final KubernetesClient client;
  private final ManagedInformer<Container> cache;
  private final Duration visibilityTimeout;

  ContainerStore(KubernetesClient client, ManagedInformer<Container> cache, Duration visibilityTimeout) {
    this.client = client;
    this.cache = cache;
    this.visibilityTimeout = visibilityTimeout;
  }

  /** Containers in a namespace, being deleted ones included (they show as stopping). Shared objects. */
  List<Container> list(String namespace) {
    return cache.inNamespace(namespace);
  }

  Optional<Container> find(String namespace, String name) {
    return cache.get(namespace, name);
  }

  Container create(Container container) {
    Container created = containers().inNamespace(container.getMetadata().getNamespace()).resource(container).create();
    cache.awaitVisible(created, visibilityTimeout);
    return created;
  }

  /** Applies {@code change} to a private copy of the current container under optimistic locking. */
  Optional<Container> update(String namespace, String name, UnaryOperator<Container> change) {
    for (int attempt = 1; ; attempt++) {
      Container current = containers().inNamespace(namespace).withName(name).get();
      if (current == null || current.getMetadata().getDeletionTimestamp() != null) {
        return Optional.empty();
      }
      try {
        Container updated = containers().inNamespace(namespace).resource(change.apply(current)).update();
        cache.awaitVisible(updated, visibilityTimeout);
        return Optional.of(updated);
      } catch (KubernetesClientException conflict) {
        if (conflict.getCode() != 409 || attempt >= UPDATE_ATTEMPTS) {
          throw conflict;
        }
        log.debug("Container {}/{} changed concurrently; retrying (attempt {})", namespace, name, attempt);
      }
    }
  }

  /** Records a use; a container deleted meanwhile is no error. */
  void recordActivity(String namespace, String name, Instant at) {
    try {
      containers().inNamespace(namespace).withName(name).subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"lastActivityAt\":\"" + Timestamps.format(at) + "\"}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  boolean delete(String namespace, String name) {
    List<StatusDetails> deleted = containers().inNamespace(namespace).withName(name).delete();
    if (deleted.isEmpty()) {
      return false;
    }
    cache.awaitGone(namespace, name, deleted.getFirst().getUid(), visibilityTimeout);
    return true;
  }

  private MixedOperation<Container, KubernetesResourceList<Container>, Resource<Container>> containers() {
    return client.resources(Container.class);
  }
}
