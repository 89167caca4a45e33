package dev.threadline.api.auth;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** The tenant namespaces (one per user), read from the informer cache, indexed by user id. */
public final class TenantDirectory {
  /** Index of tenant namespaces by their {@code threadline.dev/user} annotation. */
  public static final String BY_USER = "user";

  private final ManagedInformer<Namespace> namespaces;

  public TenantDirectory(ManagedInformer<Namespace> namespaces) {
    this.namespaces = namespaces;
  }

  /** The index function to install on the namespace informer. */
  public static Function<Namespace, List<String>> userIndex() {
    return namespace ->
        Optional.ofNullable(namespace.getMetadata().getAnnotations())
            .map(annotations -> annotations.get(Labels.USER_ANNOTATION))
            .filter(user -> !user.isBlank())
            .map(user -> List.of(user.strip()))
            .orElse(List.of());
  }

  public boolean isReady() {
    return namespaces.hasSynced();
  }

  /**
   * Names of the live (not terminating) tenant namespaces of a user, sorted; normally exactly one.
   */
  List<String> namespacesOf(String userId) {
    return namespaces.byIndex(BY_USER, userId).stream()
        .filter(namespace -> namespace.getMetadata().getDeletionTimestamp() == null)
        .filter(namespace -> isTenant(namespace.getMetadata().getLabels()))
        .map(namespace -> namespace.getMetadata().getName())
        .sorted(Comparator.naturalOrder())
        .toList();
  }

  private static boolean isTenant(Map<String, String> labels) {
    return labels != null && "true".equals(labels.get(Labels.TENANT));
  }
}
