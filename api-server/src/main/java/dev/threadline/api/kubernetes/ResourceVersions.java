package dev.threadline.api.kubernetes;

/**
 * Compares resourceVersions. Kubernetes calls them opaque, but every real API server (etcd) and the
 * fabric8 mock issue increasing integers; when either is not a number only equality counts.
 */
final class ResourceVersions {
  private ResourceVersions() {}

  static boolean isAtLeast(String candidate, String reference) {
    if (candidate == null || reference == null) {
      return candidate != null && reference == null;
    }
    if (candidate.equals(reference)) {
      return true;
    }
    try {
      return Long.parseLong(candidate) >= Long.parseLong(reference);
    } catch (NumberFormatException opaque) {
      return false;
    }
  }
}
