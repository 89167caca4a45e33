package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This process's latest write of each object, held in front of an informer's cache until the cache
 * shows that write or a later version: what is read through {@link #newest} is never older than
 * this process's own writes.
 *
 * <p>Resource versions are compared for equality only (on a cluster they are opaque strings). An
 * informer applies each object's versions in order, so after a write made from the version the
 * cache shows (or from the write held before it), the only versions the cache can show before the
 * write are ones already seen here: that base and the earlier writes of the chain. Any other
 * version is the write or later. A write made from a version read elsewhere (the API, after a
 * conflict) may be preceded by versions never seen here: it is held until the cache shows exactly
 * it (or the object goes).
 *
 * <p>java-operator-sdk's cache of a controller's own writes (5.2) drops the write at the next event
 * of the object unless it may parse resource versions as numbers, and an older event (this
 * process's previous write) often comes next.
 */
public final class OwnWrites<T extends HasMetadata> {
  /**
   * @param older the versions the cache may still show before {@code written}; null when unknown
   *     (then only {@code written} itself releases it)
   */
  private record Held<T extends HasMetadata>(T written, Set<String> older) {
    boolean shownBy(T cached) {
      String version = cached.getMetadata().getResourceVersion();
      return older == null
          ? version.equals(written.getMetadata().getResourceVersion())
          : !older.contains(version);
    }
  }

  private final Map<String, Held<T>> held = new ConcurrentHashMap<>();

  /**
   * Records a write.
   *
   * @param base the version the write was made from (null for a create)
   * @param written the object as the API answered the write
   * @param cached the informer's copy now (null when it holds none)
   */
  public synchronized void wrote(T base, T written, T cached) {
    String key = Cache.metaNamespaceKeyFunc(written);
    Held<T> previous = held.get(key);
    Set<String> older;
    if (previous != null && base != null && sameVersion(previous.written(), base)) {
      older = previous.older() == null ? null : with(previous.older(), version(base));
    } else if (base == null ? cached == null : cached != null && sameVersion(cached, base)) {
      older = base == null ? Set.of() : Set.of(version(base));
    } else {
      older = null;
    }
    Held<T> next = new Held<>(written, older);
    if (cached != null && next.shownBy(cached)) {
      held.remove(key);
    } else {
      held.put(key, next);
    }
  }

  /**
   * The newer of the informer's copy of {@code key} ({@code namespace/name}) and this process's
   * last write of it.
   */
  public synchronized T newest(String key, T cached) {
    Held<T> own = held.get(key);
    if (own == null) {
      return cached;
    }
    if (cached != null && own.shownBy(cached)) {
      held.remove(key);
      return cached;
    }
    return own.written();
  }

  /** The informer shows this version: a write it catches up with is let go. */
  public void shown(T cached) {
    newest(Cache.metaNamespaceKeyFunc(cached), cached);
  }

  /** The object is gone. */
  public void forget(T deleted) {
    held.remove(Cache.metaNamespaceKeyFunc(deleted));
  }

  /**
   * Lets go of a controller's own writes of its primary as its informer shows them: registered
   * among the controller's event sources, it hears of every event of the primary (java-operator-sdk
   * tells such sources before its filters) and triggers no reconcile.
   */
  public EventSource<T, T> releasedOnEvents(Class<T> primary) {
    return new Released<>(primary, this);
  }

  /** The same for a plain informer of the kind. */
  public ResourceEventHandler<T> releasedOnInformerEvents(Class<T> type) {
    return new Released<>(type, this);
  }

  private static final class Released<P extends HasMetadata> extends AbstractEventSource<P, P>
      implements ResourceEventAware<P>, ResourceEventHandler<P> {
    private final OwnWrites<P> writes;

    Released(Class<P> type, OwnWrites<P> writes) {
      super(type, "own-writes");
      this.writes = writes;
    }

    @Override
    public void onAdd(P resource) {
      writes.shown(resource);
    }

    @Override
    public void onUpdate(P before, P resource) {
      writes.shown(resource);
    }

    @Override
    public void onDelete(P resource, boolean finalStateUnknown) {
      writes.forget(resource);
    }

    @Override
    public void onResourceCreated(P resource) {
      onAdd(resource);
    }

    @Override
    public void onResourceUpdated(P resource, P before) {
      onUpdate(before, resource);
    }

    @Override
    public void onResourceDeleted(P resource) {
      onDelete(resource, false);
    }

    @Override
    public Set<P> getSecondaryResources(P primary) {
      return Set.of();
    }
  }

  private static Set<String> with(Set<String> versions, String version) {
    Set<String> more = new HashSet<>(versions);
    more.add(version);
    return Set.copyOf(more);
  }

  private static boolean sameVersion(HasMetadata a, HasMetadata b) {
    return version(a).equals(version(b));
  }

  private static String version(HasMetadata resource) {
    return resource.getMetadata().getResourceVersion();
  }
}
