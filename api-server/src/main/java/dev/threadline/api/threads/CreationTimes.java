package dev.threadline.api.threads;

import dev.threadline.crds.thread.ConversationThread;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each cached thread's creation time, parsed once per thread rather than at every comparison of a
 * list's sort (parsing dominated listing thousands of threads). Fed by the thread informer, which
 * forgets deleted threads here.
 */
final class CreationTimes implements ResourceEventHandler<ConversationThread> {
  /** By uid: a thread's creation time never changes, a recreated name gets a new uid. */
  private final Map<String, Optional<Instant>> byUid = new ConcurrentHashMap<>();

  /** Newest first; the name breaks ties so that pages never overlap. */
  final Comparator<ConversationThread> newestFirst =
      Comparator.comparing(
              (ConversationThread thread) -> of(thread).orElse(null),
              Comparator.nullsLast(Comparator.reverseOrder()))
          .thenComparing(thread -> thread.getMetadata().getName(), Comparator.reverseOrder());

  Optional<Instant> of(ConversationThread thread) {
    String uid = thread.getMetadata().getUid();
    if (uid == null) {
      return Optional.ofNullable(ThreadMapper.createdAt(thread));
    }
    return byUid.computeIfAbsent(uid, key -> Optional.ofNullable(ThreadMapper.createdAt(thread)));
  }

  @Override
  public void onAdd(ConversationThread thread) {
    // Parsed when first compared.
  }

  @Override
  public void onUpdate(ConversationThread before, ConversationThread after) {
    // The creation time stays.
  }

  @Override
  public void onDelete(ConversationThread thread, boolean finalStateUnknown) {
    String uid = thread.getMetadata().getUid();
    if (uid != null) {
      byUid.remove(uid);
    }
  }
}
