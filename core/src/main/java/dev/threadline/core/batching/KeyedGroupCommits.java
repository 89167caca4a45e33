package dev.threadline.core.batching;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One {@link GroupCommit} per key (per ledger, say), held only while callers use it: the last
 * caller of a key to leave removes its group, so keys that come and go (one ledger a month per
 * user) do not pile up.
 *
 * @param <K> what the writes are grouped by
 * @param <I> what a caller asks to write
 * @param <O> what a caller gets back
 */
public final class KeyedGroupCommits<K, I, O> {
  private final int maxBatch;
  private final ConcurrentMap<K, InUse<I, O>> groups = new ConcurrentHashMap<>();

  /**
   * @param maxBatch the most requests one batch of a key writes
   */
  public KeyedGroupCommits(int maxBatch) {
    this.maxBatch = maxBatch;
  }

  /**
   * Writes {@code input} with whatever else waits under {@code key}; see {@link
   * GroupCommit#submit}.
   */
  public O submit(K key, I input, GroupCommit.Writer<I, O> writer) {
    // The count changes only inside the map's atomic compute of its key, so a group is removed
    // exactly when no caller holds it, and a caller never gets a group that is being removed.
    InUse<I, O> group =
        groups.compute(
            key,
            (k, held) -> {
              InUse<I, O> used = held == null ? new InUse<>(new GroupCommit<>(maxBatch)) : held;
              used.callers++;
              return used;
            });
    try {
      return group.commit.submit(input, writer);
    } finally {
      groups.computeIfPresent(key, (k, held) -> --held.callers == 0 ? null : held);
    }
  }

  /** How many keys have a group now (for tests). */
  int groups() {
    return groups.size();
  }

  private static final class InUse<I, O> {
    private final GroupCommit<I, O> commit;
    private int callers;

    private InUse(GroupCommit<I, O> commit) {
      this.commit = commit;
    }
  }
}
