package dev.threadline.api.ratelimit;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One Bucket4j token bucket per API key (by the key's Secret, never the key). A key whose limit
 * changes gets a fresh, full bucket. There are as many buckets as keys in use, so no eviction.
 */
final class KeyBuckets {
  private record Entry(RateLimit limit, Bucket bucket) {}

  private final ConcurrentMap<String, Entry> buckets = new ConcurrentHashMap<>();

  /** Takes one token for {@code keyId} if there is one. */
  ConsumptionProbe take(String keyId, RateLimit limit) {
    Entry entry =
        buckets.compute(
            keyId,
            (id, current) ->
                current != null && current.limit().equals(limit)
                    ? current
                    : new Entry(limit, bucket(limit)));
    return entry.bucket().tryConsumeAndReturnRemaining(1);
  }

  private static Bucket bucket(RateLimit limit) {
    return Bucket.builder()
        .addLimit(bandwidth ->
            bandwidth
                .capacity(limit.burst())
                .refillGreedy(limit.perMinute(), Duration.ofMinutes(1)))
        .build();
  }
}
