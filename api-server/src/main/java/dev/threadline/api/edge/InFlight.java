package dev.threadline.api.edge;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * How many requests of each client (an API key, an address) are in progress, each held below the
 * same cap; 0 means no cap. A client with none in progress takes no memory.
 */
final class InFlight {
  private final int max;
  private final ConcurrentMap<String, Integer> counts = new ConcurrentHashMap<>();

  InFlight(int max) {
    this.max = max;
  }

  int max() {
    return max;
  }

  /** Counts one more for {@code client}, unless it has {@link #max()} already. */
  boolean tryAcquire(String client) {
    if (max == 0) {
      return true;
    }
    boolean[] taken = {false};
    counts.compute(
        client,
        (id, count) -> {
          int current = count == null ? 0 : count;
          if (current >= max) {
            return count;
          }
          taken[0] = true;
          return current + 1;
        });
    return taken[0];
  }

  /** Counts one fewer; call once for each successful {@link #tryAcquire}. */
  void release(String client) {
    if (max != 0) {
      counts.computeIfPresent(client, (id, count) -> count <= 1 ? null : count - 1);
    }
  }

  /** In progress for {@code client} now. */
  int count(String client) {
    return counts.getOrDefault(client, 0);
  }
}
