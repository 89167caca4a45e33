package dev.threadline.api.threads;

import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimit;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.stream.Stream;

/** Thread resources, as the REST layer reads and writes them. */
final class ThreadStore extends CachedResourceStore<ConversationThread> {
  /** Status writes a revival tries when the operator writes the new thread meanwhile. */
  private static final int STATUS_ATTEMPTS = 5;

  private final ThreadOrder order;

  /**
   * @param order the item store of {@code cache}'s informer
   */
  ThreadStore(
      KubernetesClient client,
      ManagedInformer<ConversationThread> cache,
      ThreadOrder order,
      Duration visibilityTimeout,
      ObjectLimit limit) {
    super(client, ConversationThread.class, cache, visibilityTimeout, limit);
    this.order = order;
  }

  /**
   * The threads {@code GET /v1/threads} shows (live, named by a REST id), newest first, the name
   * breaking ties. Shared objects: do not modify.
   */
  Stream<ConversationThread> listed(String namespace) {
    return order.newestFirst(namespace);
  }

  /**
   * Brings a thread kept in the history store back into the API: the same name, labels, annotations
   * (its REST creation time among them) and spec, then its last status (its totals and what its
   * archived runs added to them), which the operator goes on from.
   */
  ConversationThread revive(ConversationThread kept) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(kept.getMetadata().getNamespace())
            .withName(kept.getMetadata().getName())
            .withLabels(kept.getMetadata().getLabels())
            .withAnnotations(kept.getMetadata().getAnnotations())
            .build());
    thread.setSpec(kept.getSpec());
    ConversationThread created = create(thread);
    if (kept.getStatus() == null) {
      return created;
    }
    // The operator may roll the new object up first (its informer sees it at once): the kept
    // status, with what the archived runs added, goes over that, on the version it wrote.
    ConversationThread current = created;
    for (int attempt = 1; ; attempt++) {
      current.setStatus(kept.getStatus());
      try {
        return resources()
            .inNamespace(current.getMetadata().getNamespace())
            .resource(current)
            .updateStatus();
      } catch (KubernetesClientException conflict) {
        if (conflict.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == STATUS_ATTEMPTS) {
          throw conflict;
        }
        current =
            read(current.getMetadata().getNamespace(), current.getMetadata().getName())
                .orElseThrow(() -> conflict);
      }
    }
  }

  /** How many threads {@link #listed} holds. */
  int countListed(String namespace) {
    return order.count(namespace);
  }
}
