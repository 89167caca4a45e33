package dev.threadline.api.threads;

import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimit;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.stream.Stream;

/** Thread resources, as the REST layer reads and writes them. */
final class ThreadStore extends CachedResourceStore<ConversationThread> {
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

  /** How many threads {@link #listed} holds. */
  int countListed(String namespace) {
    return order.count(namespace);
  }
}
