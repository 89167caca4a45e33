package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.local.kubeapi.store.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The RBAC objects of the store, held in memory and kept current by the store's write listeners
 * (called under its write lock, before the write's answer leaves), so that authorising a request
 * never reads the store — it runs on the event loop — and a binding written is in force for the
 * next request. The {@link RbacPolicy} is rebuilt from memory on first use after a change.
 */
public final class PolicyCache {
  static final String GROUP = "rbac.authorization.k8s.io";
  public static final String ROLES = "roles." + GROUP;
  public static final String CLUSTER_ROLES = "clusterroles." + GROUP;
  public static final String ROLE_BINDINGS = "rolebindings." + GROUP;
  public static final String CLUSTER_ROLE_BINDINGS = "clusterrolebindings." + GROUP;
  public static final Set<String> RESOURCES =
      Set.of(ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS);

  private final Map<ObjectKey, JsonNode> objects = new ConcurrentHashMap<>();
  private final AtomicLong changes = new AtomicLong();
  private long builtAt = -1;
  private RbacPolicy policy = RbacPolicy.empty();

  /** An object created or replaced; objects of other resources are ignored. */
  public void stored(ObjectKey key, JsonNode object) {
    if (RESOURCES.contains(key.resource())) {
      objects.put(key, object);
      changes.incrementAndGet();
    }
  }

  public void deleted(ObjectKey key) {
    if (objects.remove(key) != null) {
      changes.incrementAndGet();
    }
  }

  /** An RBAC object as last written. */
  public Optional<JsonNode> stored(ObjectKey key) {
    return Optional.ofNullable(objects.get(key));
  }

  /** The policy as of the last write. */
  public synchronized RbacPolicy policy() {
    long now = changes.get();
    if (now != builtAt) {
      policy =
          new RbacPolicy(
              of(ROLES), of(CLUSTER_ROLES), of(ROLE_BINDINGS), of(CLUSTER_ROLE_BINDINGS));
      builtAt = now;
    }
    return policy;
  }

  private List<JsonNode> of(String resource) {
    List<JsonNode> selected = new ArrayList<>();
    objects.forEach((key, object) -> {
      if (key.resource().equals(resource)) {
        selected.add(object);
      }
    });
    return selected;
  }
}
