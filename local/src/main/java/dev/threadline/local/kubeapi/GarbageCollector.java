package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.store.ObjectKey;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.StoredObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded API's garbage collector, as a cluster's: an object none of whose owners exists any
 * more is deleted (in the background: its own dependents go with it). Deleting an owner takes its
 * dependents at once ({@link ResourceOperations}' cascade); this collector catches the objects that
 * cascade cannot see — one created or updated after its owner was deleted (a controller acting on a
 * stale cache), or one left in the store from before (swept at start).
 *
 * <p>An owner reference names the owner's kind, name and uid: the owner exists when an object of
 * that kind and name is stored with that uid (in the dependent's namespace, unless the kind is
 * cluster-scoped). A reference that cannot be checked (an unknown kind, no uid) counts as an owner
 * that exists, so nothing is deleted on a guess. An object with at least one owner left is kept
 * whole (a cluster would also drop the dangling references). Propagation is always background:
 * {@code foreground} and {@code orphan} are not implemented.
 *
 * <p>Every stored write of an object with owner references queues its key (merged while queued);
 * one thread checks them, each under the API's write lock, so that no write can slip between the
 * check and the deletion.
 */
final class GarbageCollector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

  private final ObjectStore store;
  private final ResourceTypes types;
  private final ResourceOperations operations;
  private final Set<ObjectKey> queued = ConcurrentHashMap.newKeySet();
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().daemon().name("embedded-kube-gc").factory());

  GarbageCollector(ObjectStore store, ResourceTypes types, ResourceOperations operations) {
    this.store = store;
    this.types = types;
    this.operations = operations;
  }

  /** Follows every write from now on, and checks every object with owners already stored. */
  void start() {
    store.onStored(this::stored);
    store.withOwners().forEach(this::enqueue);
  }

  /** Called under the store's lock: only queues. */
  private void stored(ObjectKey key, ObjectNode object) {
    JsonNode owners = object.path("metadata").path("ownerReferences");
    if (owners.isArray() && !owners.isEmpty()) {
      enqueue(key);
    }
  }

  private void enqueue(ObjectKey key) {
    if (queued.add(key)) {
      try {
        worker.execute(() -> collect(key));
      } catch (RejectedExecutionException e) {
        queued.remove(key); // closing
      }
    }
  }

  private void collect(ObjectKey key) {
    queued.remove(key);
    try {
      operations.exclusive(() -> {
        store
            .get(key)
            .filter(this::orphaned)
            .ifPresent(orphan -> {
              LOG.info(
                  "Deleting {} {}/{}: none of its owners exists",
                  Json.text(orphan.object(), "kind"),
                  key.namespace(),
                  key.name());
              operations.deleteAll(List.of(orphan), "its owners are gone");
            });
        return null;
      });
    } catch (RuntimeException e) {
      // The store is closing, or failed this once: the object's next write brings it back.
      LOG.warn("Could not collect {}: {}", key, e.toString());
    }
  }

  /** True when the object names owners and none of them exists. */
  boolean orphaned(StoredObject dependent) {
    JsonNode owners = dependent.object().path("metadata").path("ownerReferences");
    if (!owners.isArray() || owners.isEmpty()) {
      return false;
    }
    for (JsonNode owner : owners) {
      if (mayExist(owner, dependent.key().namespace())) {
        return false;
      }
    }
    return true;
  }

  private boolean mayExist(JsonNode owner, String dependentNamespace) {
    String uid = owner.path("uid").asText("");
    String name = owner.path("name").asText("");
    Optional<ResourceType> type =
        types.catalog().ofKind(Json.text(owner, "apiVersion"), Json.text(owner, "kind"));
    if (uid.isEmpty() || name.isEmpty() || type.isEmpty()) {
      return true;
    }
    String namespace = type.get().namespaced() ? dependentNamespace : "";
    if (type.get().namespaced() && dependentNamespace.isEmpty()) {
      return true; // a cluster-scoped object cannot be owned by a namespaced one: not ours to judge
    }
    ApiPath path =
        new ApiPath(
            type.get().group(),
            type.get().version(),
            namespace.isEmpty() ? null : namespace,
            type.get().plural(),
            name,
            null);
    return store
        .get(path.key())
        .map(found -> uid.equals(Json.text(found.object(), "metadata", "uid")))
        .orElse(false);
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
