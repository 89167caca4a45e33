package dev.threadline.api.threads;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread resources: reads from the informer cache, writes through the Kubernetes API, and waits
 * (bounded) after each write until this replica's cache reflects it.
 */
final class ThreadStore {
  private static final Logger log = LoggerFactory.getLogger(ThreadStore.class);
  private static final int UPDATE_ATTEMPTS = 3;

  private final KubernetesClient client;
  private final ManagedInformer<ConversationThread> cache;
  private final Duration visibilityTimeout;

  ThreadStore(KubernetesClient client, ManagedInformer<ConversationThread> cache, Duration visibilityTimeout) {
    this.client = client;
    this.cache = cache;
    this.visibilityTimeout = visibilityTimeout;
  }

  /** Live threads of a namespace, unordered. Shared objects: do not modify. */
  List<ConversationThread> list(String namespace) {
    return cache.inNamespace(namespace).stream().filter(ThreadStore::isLive).toList();
  }

  /** A live thread from the cache. Shared object: do not modify. */
  Optional<ConversationThread> find(String namespace, String name) {
    return cache.get(namespace, name).filter(ThreadStore::isLive);
  }

  ConversationThread create(ConversationThread thread) {
    ConversationThread created =
        client.resources(ConversationThread.class).inNamespace(thread.getMetadata().getNamespace()).resource(thread).create();
    cache.awaitVisible(created, visibilityTimeout);
    return created;
  }

  /** Applies {@code change} to a fresh copy and replaces it under optimistic locking; empty when gone. */
  Optional<ConversationThread> update(String namespace, String name, UnaryOperator<ConversationThread> change) {
    for (int attempt = 1; ; attempt++) {
      ConversationThread current = client.resources(ConversationThread.class).inNamespace(namespace).withName(name).get();
      if (current == null || !isLive(current)) {
        return Optional.empty();
      }
      try {
        ConversationThread updated =
            client.resources(ConversationThread.class).inNamespace(namespace).resource(change.apply(current)).update();
        cache.awaitVisible(updated, visibilityTimeout);
        return Optional.of(updated);
      } catch (KubernetesClientException conflict) {
        if (conflict.getCode() != 409 || attempt >= UPDATE_ATTEMPTS) {
          throw conflict;
        }
        log.debug("Thread({}/{}) changed concurrently; retrying (attempt {})", namespace, name, attempt);
      }
    }
  }

  /** Deletes the thread; false when there was none. */
  boolean delete(String namespace, String name) {
    List<StatusDetails> deleted = client.resources(ConversationThread.class).inNamespace(namespace).withName(name).delete();
    if (deleted.isEmpty()) {
      return false;
    }
    cache.awaitGone(namespace, name, deleted.getFirst().getUid(), visibilityTimeout);
    return true;
  }

  private static boolean isLive(ConversationThread thread) {
    return thread.getMetadata().getDeletionTimestamp() == null;
  }
}
