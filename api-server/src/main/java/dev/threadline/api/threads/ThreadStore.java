package dev.threadline.api.threads;

import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimit;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Comparator;

/** Thread resources, as the REST layer reads and writes them. */
final class ThreadStore extends CachedResourceStore<ConversationThread> {
  private final CreationTimes creationTimes = new CreationTimes();

  ThreadStore(
      KubernetesClient client,
      ManagedInformer<ConversationThread> cache,
      Duration visibilityTimeout,
      ObjectLimit limit) {
    super(client, ConversationThread.class, cache, visibilityTimeout, limit);
    cache.addEventHandler(creationTimes);
  }

  /** Newest first, the order of {@code GET /v1/threads}; the name breaks ties. */
  Comparator<ConversationThread> newestFirst() {
    return creationTimes.newestFirst;
  }
}
