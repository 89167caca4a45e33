package dev.threadline.api.kubernetes;

import dev.threadline.api.limits.ObjectLimit;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind of resource as the REST layer uses it: reads from the informer cache, writes through the
 * Kubernetes API, and after each write waits (bounded) until this replica's cache reflects it, so
 * the next read sees the write. Callers answer with the object the API server returned, never the
 * cache's. An object being deleted (finalizers pending) is already gone for REST clients.
 */
public abstract class CachedResourceStore<T extends HasMetadata> {
  private static final Logger log = LoggerFactory.getLogger(CachedResourceStore.class);

  /** A concurrent writer may win the optimistic lock; re-read and re-apply a few times. */
  private static final int DEFAULT_UPDATE_ATTEMPTS = 3;

  protected final KubernetesClient client;
  protected final ManagedInformer<T> cache;
  protected final Duration visibilityTimeout;
  private final Class<T> type;
  private final ObjectLimit limit;

  protected CachedResourceStore(
      KubernetesClient client,
      Class<T> type,
      ManagedInformer<T> cache,
      Duration visibilityTimeout) {
    this(client, type, cache, visibilityTimeout, null);
  }

  /** A store whose {@link #create} refuses a user's object beyond {@code limit}. */
  protected CachedResourceStore(
      KubernetesClient client,
      Class<T> type,
      ManagedInformer<T> cache,
      Duration visibilityTimeout,
      ObjectLimit limit) {
    this.client = client;
    this.type = type;
    this.cache = cache;
    this.visibilityTimeout = visibilityTimeout;
    this.limit = limit;
  }

  /** Live objects of a namespace, unordered, from the cache. Shared objects: do not modify. */
  public List<T> list(String namespace) {
    return cache.inNamespace(namespace).stream().filter(CachedResourceStore::isLive).toList();
  }

  /** A live object from the cache. Shared object: do not modify. */
  public Optional<T> find(String namespace, String name) {
    return cache.get(namespace, name).filter(CachedResourceStore::isLive);
  }

  /**
   * A live object from the API server, for decisions that must not act on a stale copy. A private
   * copy.
   */
  public Optional<T> read(String namespace, String name) {
    return Optional.ofNullable(resources().inNamespace(namespace).withName(name).get())
        .filter(CachedResourceStore::isLive);
  }

  /**
   * Creates the object; {@link KubernetesClientException} 409 when the name is taken, a 403 {@code
   * limit_exceeded} when the namespace (the user) holds the store's limit already.
   */
  public T create(T object) {
    checkRoom(object.getMetadata().getNamespace());
    T created =
        resources().inNamespace(object.getMetadata().getNamespace()).resource(object).create();
    cache.awaitVisible(created, visibilityTimeout);
    return created;
  }

  /**
   * A 403 {@code limit_exceeded} when the namespace (the user) holds the store's limit already: for
   * objects of this kind that something else creates on the user's behalf.
   */
  public void checkRoom(String namespace) {
    if (limit != null) {
      limit.checkRoom(cache.countInNamespace(namespace));
    }
  }

  /**
   * Applies {@code change} to a fresh private copy and replaces the object under optimistic
   * locking, re-reading on a conflict; empty when there is none. {@code change} may throw to
   * refuse.
   */
  public Optional<T> update(String namespace, String name, UnaryOperator<T> change) {
    for (int attempt = 1; ; attempt++) {
      Optional<T> current = read(namespace, name);
      if (current.isEmpty()) {
        return Optional.empty();
      }
      try {
        T updated =
            resources().inNamespace(namespace).resource(change.apply(current.get())).update();
        cache.awaitVisible(updated, visibilityTimeout);
        return Optional.of(updated);
      } catch (KubernetesClientException conflict) {
        if (conflict.getCode() != 409 || attempt >= updateAttempts()) {
          throw conflict;
        }
        log.debug(
            "{}({}/{}) changed concurrently; retrying (attempt {})",
            type.getSimpleName(),
            namespace,
            name,
            attempt);
      }
    }
  }

  /** Deletes the object; false when there was none. */
  public boolean delete(String namespace, String name) {
    List<StatusDetails> deleted = resources().inNamespace(namespace).withName(name).delete();
    if (deleted.isEmpty()) {
      return false;
    }
    cache.awaitGone(namespace, name, deleted.getFirst().getUid(), visibilityTimeout);
    return true;
  }

  /** How often {@link #update} tries before a conflict reaches the caller. */
  protected int updateAttempts() {
    return DEFAULT_UPDATE_ATTEMPTS;
  }

  protected MixedOperation<T, KubernetesResourceList<T>, Resource<T>> resources() {
    return client.resources(type);
  }

  protected static boolean isLive(HasMetadata object) {
    return object.getMetadata().getDeletionTimestamp() == null;
  }
}
