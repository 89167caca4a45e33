package dev.threadline.local.kubeapi.store;

import java.time.Duration;

/**
 * Tuning of the {@link ObjectStore}.
 *
 * @param retainedRevisions how many revisions of the log compaction keeps; a watch from an older
 *     resourceVersion gets {@code 410 Expired}
 * @param watchQueueCapacity how many live events a watch may fall behind before it is ended
 * @param bookmarkInterval how often watches that asked for bookmarks get one
 */
public record StoreOptions(
    long retainedRevisions, int watchQueueCapacity, Duration bookmarkInterval) {
  public StoreOptions {
    if (retainedRevisions < 1 || watchQueueCapacity < 1 || bookmarkInterval.isNegative()) {
      throw new IllegalArgumentException("store options must be positive");
    }
  }

  public static StoreOptions defaults() {
    return new StoreOptions(10_000, 10_000, Duration.ofSeconds(30));
  }
}
