package dev.threadline.api.threads;

import dev.threadline.api.kubernetes.ForwardingItemStore;
import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.Stream;

/**
 * The thread informer's store, which also keeps each namespace's listed threads (live, with a REST
 * id) newest first: a page of {@code GET /v1/threads} is read in order from the top instead of
 * being picked from every thread of the user (100,000 threads cost no more than 100). The order
 * changes in the same call that changes the cache, before it: a thread the cache shows is in it.
 */
final class ThreadOrder extends ForwardingItemStore<ConversationThread> {
  /** A listed thread's place: newest first, the name breaking ties so that pages never overlap. */
  private record Place(String namespace, Instant created, String name) {}

  private static final Comparator<Place> NEWEST_FIRST =
      Comparator.comparing(Place::created, Comparator.nullsLast(Comparator.reverseOrder()))
          .thenComparing(Place::name, Comparator.reverseOrder());

  private final Map<String, NavigableSet<Place>> byNamespace = new ConcurrentHashMap<>();

  /** Each listed thread's place, by cache key: where to remove it from when it changes. */
  private final Map<String, Place> places = new ConcurrentHashMap<>();

  ThreadOrder() {
    super(new BasicItemStore<>(Cache::metaNamespaceKeyFunc));
  }

  /** The namespace's listed threads, newest first. Shared objects: do not modify. */
  Stream<ConversationThread> newestFirst(String namespace) {
    NavigableSet<Place> order = byNamespace.get(namespace);
    if (order == null) {
      return Stream.empty();
    }
    return order.stream()
        .map(place -> get(Cache.namespaceKeyFunc(namespace, place.name())))
        .filter(Objects::nonNull)
        .filter(ThreadOrder::listed);
  }

  /** How many threads {@link #newestFirst} holds. */
  int count(String namespace) {
    NavigableSet<Place> order = byNamespace.get(namespace);
    return order == null ? 0 : order.size();
  }

  @Override
  public ConversationThread put(String key, ConversationThread thread) {
    unplace(key);
    if (listed(thread)) {
      Place place =
          new Place(
              thread.getMetadata().getNamespace(),
              ThreadMapper.createdAt(thread),
              thread.getMetadata().getName());
      byNamespace
          .computeIfAbsent(
              place.namespace(), namespace -> new ConcurrentSkipListSet<>(NEWEST_FIRST))
          .add(place);
      places.put(key, place);
    }
    return super.put(key, thread);
  }

  @Override
  public ConversationThread remove(String key) {
    unplace(key);
    return super.remove(key);
  }

  private void unplace(String key) {
    Place place = places.remove(key);
    if (place != null) {
      byNamespace.get(place.namespace()).remove(place);
    }
  }

  /** What {@code GET /v1/threads} shows: not being deleted, named by a REST id. */
  private static boolean listed(ConversationThread thread) {
    return thread.getMetadata().getDeletionTimestamp() == null && ThreadMapper.hasRestId(thread);
  }
}
