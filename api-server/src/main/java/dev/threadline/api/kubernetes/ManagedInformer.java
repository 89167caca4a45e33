package dev.threadline.api.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * One informer cache the API server reads instead of calling the Kubernetes API per request.
 * Started and stopped with the application context; keeps retrying when the API is unreachable or a
 * list is refused, so the server recovers by itself (health reports the gap meanwhile).
 */
public final class ManagedInformer<T extends HasMetadata> implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(ManagedInformer.class);

  /**
   * Objects per page of an informer's list (set with {@code withLimit}): a store of 100,000 threads
   * answers the first list in bounded requests instead of one answer holding all of them.
   */
  public static final long LIST_PAGE = 500;

  private static final Duration SYNC_POLL = Duration.ofMillis(20);

  private final String name;
  private final SharedIndexInformer<T> informer;
  private final NamespaceCounts<T> counts;
  private volatile boolean running;

  /** Counts the changes the cache took; waiters for a write wake on each instead of polling. */
  private final Object changed = new Object();

  private long changes;

  /**
   * @param name what it caches, for logs and health (e.g. {@code agents})
   * @param informer a not yet started informer ({@code runnableInformer(0)})
   * @param indexers extra indexes, by name; the namespace index is always present
   */
  public ManagedInformer(
      String name,
      SharedIndexInformer<T> informer,
      Map<String, Function<T, List<String>>> indexers) {
    this(name, informer, indexers, new BasicItemStore<>(Cache::metaNamespaceKeyFunc));
  }

  /**
   * As above, the cache keeping its objects in {@code items} (e.g. a store that also orders them);
   * set here, not on the informer, so that the namespace counts see every change.
   */
  public ManagedInformer(
      String name,
      SharedIndexInformer<T> informer,
      Map<String, Function<T, List<String>>> indexers,
      ItemStore<T> items) {
    this.name = name;
    this.informer = informer;
    this.counts = new NamespaceCounts<>(items);
    informer.itemStore(counts);
    if (!indexers.isEmpty()) {
      informer.addIndexers(indexers);
    }
    informer.exceptionHandler(this::retryAfter);
    informer.addEventHandler(
        new ResourceEventHandler<T>() {
          @Override
          public void onAdd(T object) {
            signalChange();
          }

          @Override
          public void onUpdate(T before, T after) {
            signalChange();
          }

          @Override
          public void onDelete(T object, boolean finalStateUnknown) {
            signalChange();
          }
        });
  }

  private void signalChange() {
    synchronized (changed) {
      changes++;
      changed.notifyAll();
    }
  }

  public String name() {
    return name;
  }

  /**
   * Adds a handler told of every change after the cache holds it (for state derived from the cache;
   * reads that must see a write use the cache itself).
   */
  public void addEventHandler(ResourceEventHandler<? super T> handler) {
    informer.addEventHandler(handler);
  }

  /** Whether the initial list has completed: only then do reads reflect the cluster. */
  public boolean hasSynced() {
    return informer.hasSynced();
  }

  /** Whether the watch is connected, i.e. the cache is receiving changes right now. */
  public boolean isWatching() {
    return informer.isWatching();
  }

  /** The cached object, or empty. The object is shared: never modify it. */
  public Optional<T> get(String namespace, String objectName) {
    return Optional.ofNullable(
        informer.getIndexer().getByKey(Cache.namespaceKeyFunc(namespace, objectName)));
  }

  /** Cached objects whose index value matches. The objects are shared: never modify them. */
  public List<T> byIndex(String index, String value) {
    return informer.getIndexer().byIndex(index, value);
  }

  /** How many objects of a namespace the cache holds, without reading them. */
  public int countInNamespace(String namespace) {
    return counts.count(namespace);
  }

  /** Cached objects in a namespace. The objects are shared: never modify them. */
  public List<T> inNamespace(String namespace) {
    return byIndex(Cache.NAMESPACE_INDEX, namespace);
  }

  /**
   * Waits up to {@code timeout} until the initial list is loaded and the watch is connected (what
   * readiness checks); true when both hold.
   */
  public boolean awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isReady() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(SYNC_POLL.toMillis());
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return isReady();
  }

  private boolean isReady() {
    return hasSynced() && isWatching();
  }

  /**
   * Waits (bounded) until the cache holds {@code written} or a later version of it, so that a read
   * right after a write through this server sees the write. Returns false on timeout; the caller
   * still answers with the object the API server returned.
   */
  public boolean awaitVisible(T written, Duration timeout) {
    String namespace = written.getMetadata().getNamespace();
    String objectName = written.getMetadata().getName();
    String version = written.getMetadata().getResourceVersion();
    return awaitCondition(
        timeout,
        () ->
            get(namespace, objectName)
                .map(cached ->
                    ResourceVersions.isAtLeast(cached.getMetadata().getResourceVersion(), version))
                .orElse(false));
  }

  /**
   * Waits (bounded) until the cache no longer holds the deleted object (or holds it marked for
   * deletion, or holds a newer object of the same name); {@code uid} may be null when unknown.
   */
  public boolean awaitGone(String namespace, String objectName, String uid, Duration timeout) {
    return awaitCondition(
        timeout,
        () ->
            get(namespace, objectName)
                .map(cached ->
                    cached.getMetadata().getDeletionTimestamp() != null
                        || (uid != null && !uid.equals(cached.getMetadata().getUid())))
                .orElse(true));
  }

  /** Waits until {@code condition} holds, checking it after each change the cache takes. */
  private boolean awaitCondition(Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long seen;
      synchronized (changed) {
        seen = changes;
      }
      if (condition.getAsBoolean()) {
        return true;
      }
      synchronized (changed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          log.warn("Informer {} did not reflect a write within {}", name, timeout);
          return false;
        }
        if (changes == seen) {
          try {
            TimeUnit.NANOSECONDS.timedWait(changed, left);
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
          }
        }
      }
    }
  }

  @Override
  public void start() {
    log.info("Starting informer {}", name);
    informer.start();
    running = true;
  }

  @Override
  public void stop() {
    log.info("Stopping informer {}", name);
    informer.stop();
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private boolean retryAfter(boolean started, Throwable failure) {
    if (ExceptionHandler.isDeserializationException(failure)) {
      log.error("Informer {} cannot read objects; giving up", name, failure);
      return false;
    }
    log.warn("Informer {} failed ({}); retrying", name, failure.toString());
    return true;
  }
}
