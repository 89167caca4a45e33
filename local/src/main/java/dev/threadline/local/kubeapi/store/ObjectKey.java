package dev.threadline.local.kubeapi.store;

import java.util.Objects;

/**
 * Where one object lives in the store.
 *
 * @param resource the plural resource qualified by its group ({@code threads.threadline.dev}), the
 *     bare plural for the core group ({@code pods})
 * @param namespace the namespace, empty for cluster-scoped objects
 * @param name the object's name
 */
public record ObjectKey(String resource, String namespace, String name) {
  public ObjectKey {
    Objects.requireNonNull(resource, "resource");
    namespace = namespace == null ? "" : namespace;
    Objects.requireNonNull(name, "name");
  }
}
