package dev.threadline.operator.usage;

import dev.threadline.crds.run.Run;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the usage recorder knows of the {@code usageRecorded} marks it wrote, so that it trusts its
 * cache of Runs instead of reading each Run from the API before counting it. A cached copy without
 * the mark may be older than a mark: one this process wrote whose event has not arrived (another
 * writer's older event came first), or one an earlier process wrote (before a restart, or the
 * leader before this one) that the informer has not delivered yet. Counting from such a copy could
 * count the run twice, once the ledger has forgotten it as settled.
 *
 * <ul>
 *   <li>Marks of this process not shown by the cache yet are held by uid: a copy of such a run
 *       without the mark is older than the mark.
 *   <li>A namespace is trusted once the cache has shown one of this process's own marks there: an
 *       informer applies its watch's events in order, so by then it has applied every write made
 *       before this process marked anything, an earlier process's marks included. Until then the
 *       Run is read from the API. (Resource versions are compared by equality only: they are
 *       opaque.)
 *   <li>A mark whose write failed without an answer may have landed: that run is read afresh once.
 * </ul>
 */
final class UsageMarks {
  private final Set<String> marked = ConcurrentHashMap.newKeySet();
  private final Set<String> trusted = ConcurrentHashMap.newKeySet();
  private final Set<String> unsure = ConcurrentHashMap.newKeySet();

  /** The cache shows this version of a Run (every event of the recorder's informer). */
  void shown(Run run) {
    if (isMarked(run) && marked.remove(run.getMetadata().getUid())) {
      trusted.add(run.getMetadata().getNamespace());
    }
  }

  /** Whether this process marked the run and the cache has not shown that mark yet. */
  boolean awaitingOwnMark(Run run) {
    return marked.contains(run.getMetadata().getUid());
  }

  /** Whether the cache may be older than a mark of the run: read it from the API then. */
  boolean mustReadFresh(Run run) {
    boolean wasUnsure = unsure.remove(run.getMetadata().getUid());
    return wasUnsure || !trusted.contains(run.getMetadata().getNamespace());
  }

  /**
   * This process is about to write the run's mark (held before the write: its event may arrive
   * before the write's answer).
   */
  void marking(Run run) {
    marked.add(run.getMetadata().getUid());
  }

  /** The mark's write failed without telling whether it landed. */
  void failed(Run run) {
    marked.remove(run.getMetadata().getUid());
    unsure.add(run.getMetadata().getUid());
  }

  /** The run is gone: nothing to remember of it. */
  void forget(Run run) {
    marked.remove(run.getMetadata().getUid());
    unsure.remove(run.getMetadata().getUid());
  }

  static boolean isMarked(Run run) {
    return run.getStatus() != null && Boolean.TRUE.equals(run.getStatus().getUsageRecorded());
  }
}
