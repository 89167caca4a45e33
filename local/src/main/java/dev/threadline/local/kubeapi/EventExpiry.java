package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.store.ObjectKey;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.Selection;
import dev.threadline.local.kubeapi.store.StoredObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Events expire, as kube-apiserver's {@code --event-ttl} makes them (1 h by default there): an
 * Event is deleted once {@code ttl} has passed since its last write — each write (a count bump)
 * starts its time again, as each write renews the etcd lease. The deletion is an ordinary one, so
 * watchers see one DELETED per Event, as they do when etcd's lease ends on a cluster. Without this
 * a long-lived local mode keeps every Event of every run.
 *
 * <p>Expiry times are kept in memory, set by every stored write; at start, those of the Events
 * already stored are read from their own last write ({@code managedFields}' newest time, else their
 * timestamps), so a restart neither keeps nor drops them early.
 */
final class EventExpiry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EventExpiry.class);

  /** The store's resource of core Events (events.k8s.io/v1 is not served). */
  static final String EVENTS = "events";

  /** The most Events deleted under one hold of the API's write lock. */
  static final int BATCH = 200;

  private static final Duration LONGEST_SWEEP_PAUSE = Duration.ofMinutes(1);
  private static final Duration SHORTEST_SWEEP_PAUSE = Duration.ofMillis(100);

  private final ObjectStore store;
  private final ResourceOperations operations;
  private final Duration ttl;
  private final Clock clock;
  private final Map<ObjectKey, Instant> expiries = new ConcurrentHashMap<>();
  private final ScheduledExecutorService sweeper =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("embedded-kube-event-ttl").factory());

  EventExpiry(ObjectStore store, ResourceOperations operations, Duration ttl, Clock clock) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("the Event TTL must be positive: " + ttl);
    }
    this.store = store;
    this.operations = operations;
    this.ttl = ttl;
    this.clock = clock;
  }

  /** Follows every write from now on, reads the stored Events' ages and starts sweeping. */
  void start() {
    store.onStored(this::stored);
    store.onDeleted(expiries::remove);
    for (JsonNode event : store.list(Selection.all(EVENTS), 0, null).items()) {
      JsonNode metadata = event.path("metadata");
      ObjectKey key =
          new ObjectKey(
              EVENTS, metadata.path("namespace").asText(""), metadata.path("name").asText());
      expiries.putIfAbsent(key, lastWrite(event).orElse(clock.instant()).plus(ttl));
    }
    long pause = sweepPause(ttl).toMillis();
    sweeper.scheduleWithFixedDelay(this::sweep, pause, pause, TimeUnit.MILLISECONDS);
  }

  /** A tenth of the TTL (an Event lives at most 10% longer), between 100 ms and a minute. */
  static Duration sweepPause(Duration ttl) {
    Duration tenth = ttl.dividedBy(10);
    if (tenth.compareTo(SHORTEST_SWEEP_PAUSE) < 0) {
      return SHORTEST_SWEEP_PAUSE;
    }
    return tenth.compareTo(LONGEST_SWEEP_PAUSE) > 0 ? LONGEST_SWEEP_PAUSE : tenth;
  }

  /** Called under the store's lock: only notes the time. */
  private void stored(ObjectKey key, ObjectNode object) {
    if (key.resource().equals(EVENTS)) {
      expiries.put(key, clock.instant().plus(ttl));
    }
  }

  /** Deletes the expired Events, a batch per hold of the write lock. */
  void sweep() {
    try {
      List<ObjectKey> expired;
      do {
        Instant now = clock.instant();
        expired = new ArrayList<>();
        for (Map.Entry<ObjectKey, Instant> entry : expiries.entrySet()) {
          if (!entry.getValue().isAfter(now)) {
            expired.add(entry.getKey());
            if (expired.size() == BATCH) {
              break;
            }
          }
        }
        if (!expired.isEmpty()) {
          delete(expired, now);
        }
      } while (expired.size() == BATCH);
    } catch (RuntimeException e) {
      // The store is closing, or failed this once: the next sweep finds them again.
      LOG.warn("Could not expire Events: {}", e.toString());
    }
  }

  private void delete(List<ObjectKey> expired, Instant now) {
    operations.exclusive(() -> {
      List<StoredObject> doomed = new ArrayList<>();
      for (ObjectKey key : expired) {
        Instant expiry = expiries.get(key);
        if (expiry == null || expiry.isAfter(now)) {
          continue; // deleted or written again since the look
        }
        Optional<StoredObject> stored = store.get(key);
        if (stored.isPresent()) {
          doomed.add(stored.get());
        } else {
          expiries.remove(key);
        }
      }
      operations.deleteAll(doomed, "its time to live (" + ttl + ") ended");
      return null;
    });
  }

  /** When an Event was last written, by what it says of itself. */
  static Optional<Instant> lastWrite(JsonNode event) {
    Instant newest = null;
    for (JsonNode entry : event.path("metadata").path("managedFields")) {
      newest = later(newest, parse(entry.path("time").asText("")));
    }
    if (newest != null) {
      return Optional.of(newest);
    }
    for (JsonNode time :
        List.of(
            event.path("series").path("lastObservedTime"),
            event.path("lastTimestamp"),
            event.path("eventTime"),
            event.path("metadata").path("creationTimestamp"))) {
      newest = later(newest, parse(time.asText("")));
    }
    return Optional.ofNullable(newest);
  }

  private static Instant later(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || a.isAfter(b) ? a : b;
  }

  private static Instant parse(String text) {
    if (text.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
    try {
      sweeper.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
