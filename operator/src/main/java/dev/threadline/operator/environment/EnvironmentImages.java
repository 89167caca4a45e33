package dev.threadline.operator.environment;

import dev.threadline.core.environment.ImageTags;

/**
 * Where a tenant's environment images live: {@code <registry>/<namespace>/env-<name>:<hash>}, and
 * their layer cache in {@code <registry>/<namespace>/cache}. The namespace (one per user) in the
 * path keeps one tenant's images and cache apart from another's, and lets a registry give each
 * namespace's push credential rights on that path only.
 */
public final class EnvironmentImages {
  static final String CACHE_REPOSITORY = "cache";
  private static final String DIGEST_PREFIX = "sha256:";

  private EnvironmentImages() {}

  /** {@code <registry>/<namespace>}: the tenant's path in the registry. */
  static String tenantPath(String registry, String namespace) {
    String trimmed = registry == null ? "" : registry.strip().replaceAll("/+$", "");
    return trimmed.isEmpty() ? namespace : trimmed + "/" + namespace;
  }

  /** {@code <registry>/<namespace>/env-<name>:<hash>}. */
  static String destination(String registry, String namespace, String imageTag) {
    return ImageTags.reference(tenantPath(registry, namespace), imageTag);
  }

  /** {@code <registry>/<namespace>/cache}, or null without a registry (no remote cache). */
  static String cacheRepository(String registry, String namespace) {
    return registry == null || registry.isBlank()
        ? null
        : ImageTags.reference(tenantPath(registry, namespace), CACHE_REPOSITORY);
  }

  /**
   * The image agent Pods run: pinned by digest when the build reported one ({@code
   * <registry>/<namespace>/env-<name>@sha256:…}), so a tag moved later cannot change what runs;
   * otherwise by tag.
   */
  public static String runnable(String registry, String namespace, String imageTag, String digest) {
    String byTag = destination(registry, namespace, imageTag);
    if (digest == null || !digest.startsWith(DIGEST_PREFIX)) {
      return byTag;
    }
    int lastSlash = byTag.lastIndexOf('/');
    int tagColon = byTag.lastIndexOf(':');
    String repository = tagColon > lastSlash ? byTag.substring(0, tagColon) : byTag;
    return repository + "@" + digest;
  }
}
