package dev.threadline.operator.kubernetes;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides, as client-go's {@code EventCorrelator} does, what recording an Event means: a new Event,
 * a bump of the {@code count} of the Event already recorded for the same object, type, reason and
 * message, or nothing, when the object has had its share.
 *
 * <ul>
 *   <li>Spam filter: a token bucket per object, {@value #BURST} Events at once, then one per {@link
 *       #REFILL} — a bumped Event costs a token too, so a loop that repeats itself writes little.
 *   <li>Aggregation: once an object has had {@value #SIMILAR} Events of one type and reason with
 *       different messages within {@link #WINDOW}, the next ones become one Event, "(combined from
 *       similar events): " and the latest message, whose count grows.
 *   <li>Deduplication: the same Event again (object, type, reason, message) bumps the count of the
 *       one recorded, not a new object.
 * </ul>
 *
 * Everything it remembers is bounded ({@value #MAX_REMEMBERED} entries per table, least recently
 * used forgotten first). Plain logic, not thread-safe on its own: {@link KubernetesEvents} calls it
 * under a lock.
 */
final class EventCorrelator {
  static final int BURST = 25;
  static final Duration REFILL = Duration.ofMinutes(5);
  static final int SIMILAR = 10;
  static final Duration WINDOW = Duration.ofMinutes(10);
  static final int MAX_REMEMBERED = 4096;
  static final String COMBINED = "(combined from similar events): ";

  /** The object an Event is about. */
  record Subject(String namespace, String kind, String name, String uid) {}

  /** What to write: {@code count} 1 is a new Event, more is a bump of {@code name}. */
  record Decision(String name, String message, int count, Instant firstSeen) {
    boolean isNew() {
      return count == 1;
    }
  }

  private record Similar(Subject subject, String type, String reason) {}

  private record Same(Similar similar, String message) {}

  private record Recorded(String name, int count, Instant firstSeen) {}

  private static final class Bucket {
    double tokens = BURST;
    Instant refilled;

    Bucket(Instant now) {
      refilled = now;
    }
  }

  private static final class Messages {
    final Set<String> seen = new HashSet<>();
    Instant since;

    Messages(Instant now) {
      since = now;
    }
  }

  private final Map<Subject, Bucket> buckets = lru();
  private final Map<Similar, Messages> similar = lru();
  private final Map<Same, Recorded> recorded = lru();

  /**
   * What to write for an Event, or null when the object's share is spent. {@code newName} names a
   * new Event; it is asked only when one is made.
   */
  Decision observe(
      Subject subject,
      String type,
      String reason,
      String message,
      Instant now,
      java.util.function.Supplier<String> newName) {
    if (!takeToken(subject, now)) {
      return null;
    }
    Similar kind = new Similar(subject, type, reason);
    String text = Objects.requireNonNullElse(message, "");
    Same key = new Same(kind, text);
    if (!recorded.containsKey(key) && isFlood(kind, text, now)) {
      key = new Same(kind, COMBINED);
      text = COMBINED + text;
    }
    Recorded previous = recorded.get(key);
    Recorded next =
        previous == null
            ? new Recorded(newName.get(), 1, now)
            : new Recorded(previous.name(), previous.count() + 1, previous.firstSeen());
    recorded.put(key, next);
    return new Decision(next.name(), text, next.count(), next.firstSeen());
  }

  /** Forgets an Event the API no longer has, so that the next one is made anew. */
  void forget(String name) {
    recorded.values().removeIf(entry -> entry.name().equals(name));
  }

  private boolean takeToken(Subject subject, Instant now) {
    Bucket bucket = buckets.computeIfAbsent(subject, any -> new Bucket(now));
    double elapsed = Math.max(0, Duration.between(bucket.refilled, now).toMillis());
    bucket.tokens = Math.min(BURST, bucket.tokens + elapsed / REFILL.toMillis());
    bucket.refilled = now;
    if (bucket.tokens < 1) {
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }

  /** Whether this message is one too many of its kind within the window. */
  private boolean isFlood(Similar kind, String message, Instant now) {
    Messages messages = similar.computeIfAbsent(kind, any -> new Messages(now));
    if (Duration.between(messages.since, now).compareTo(WINDOW) > 0) {
      messages.seen.clear();
      messages.since = now;
    }
    if (messages.seen.size() < SIMILAR) {
      messages.seen.add(message);
      return false;
    }
    return !messages.seen.contains(message);
  }

  private static <K, V> Map<K, V> lru() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > MAX_REMEMBERED;
      }
    };
  }
}
