package dev.threadline.api.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An informer's item store that also counts each namespace's objects. The informer's cache calls it
 * under its own lock, so a count always matches what the cache holds. The cache's namespace index
 * can only be counted by copying the namespace's keys, which made every create's limit check cost
 * as much as the user's objects (thousands of runs).
 */
final class NamespaceCounts<T extends HasMetadata> extends ForwardingItemStore<T> {
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  NamespaceCounts(ItemStore<T> items) {
    super(items);
  }

  /** How many objects of {@code namespace} the store holds. */
  int count(String namespace) {
    AtomicInteger count = counts.get(namespace);
    return count == null ? 0 : count.get();
  }

  @Override
  public T put(String key, T object) {
    T previous = super.put(key, object);
    if (previous == null) {
      counts.computeIfAbsent(namespaceOf(object), ignored -> new AtomicInteger()).incrementAndGet();
    }
    return previous;
  }

  @Override
  public T remove(String key) {
    T removed = super.remove(key);
    if (removed != null) {
      counts.computeIfPresent(
          namespaceOf(removed), (ignored, count) -> count.decrementAndGet() == 0 ? null : count);
    }
    return removed;
  }

  /** Cluster-scoped objects (namespaces) count under "". */
  private static String namespaceOf(HasMetadata object) {
    String namespace = object.getMetadata().getNamespace();
    return namespace == null ? "" : namespace;
  }
}
