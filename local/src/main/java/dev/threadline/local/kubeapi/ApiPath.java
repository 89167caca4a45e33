package dev.threadline.local.kubeapi;

import dev.threadline.local.kubeapi.store.ObjectKey;
import java.util.Optional;

/**
 * A Kubernetes resource path taken apart: {@code
 * /api/v1[/namespaces/{ns}]/{resource}[/{name}[/{sub}]]} and the same under {@code
 * /apis/{group}/{version}}. {@code group} is empty for the core group. Discovery paths ({@code
 * /api}, {@code /apis/{group}/{version}}) are not resource paths.
 */
record ApiPath(
    String group,
    String version,
    String namespace,
    String resource,
    String name,
    String subresource) {

  /** Parses the path part of a request URI (no query); empty when it is no resource path. */
  static Optional<ApiPath> parse(String path) {
    if (path == null || !path.startsWith("/")) {
      return Optional.empty();
    }
    String trimmed =
        path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    String[] segments = trimmed.substring(1).split("/", -1);
    int rest;
    String group;
    String version;
    if (segments.length >= 3 && segments[0].equals("api")) {
      group = "";
      version = segments[1];
      rest = 2;
    } else if (segments.length >= 4 && segments[0].equals("apis")) {
      group = segments[1];
      version = segments[2];
      rest = 3;
    } else {
      return Optional.empty();
    }
    String[] parts = new String[segments.length - rest];
    System.arraycopy(segments, rest, parts, 0, parts.length);
    for (String part : parts) {
      if (part.isEmpty()) {
        return Optional.empty();
      }
    }
    return fromParts(group, version, parts);
  }

  private static Optional<ApiPath> fromParts(String group, String version, String[] p) {
    boolean namespacedForm = p[0].equals("namespaces") && p.length >= 3;
    // namespaces/{name}/status and namespaces/{name}/finalize are subresources of a Namespace.
    if (namespacedForm && p.length == 3 && (p[2].equals("status") || p[2].equals("finalize"))) {
      namespacedForm = false;
    }
    if (namespacedForm) {
      return switch (p.length) {
        case 3 -> Optional.of(new ApiPath(group, version, p[1], p[2], null, null));
        case 4 -> Optional.of(new ApiPath(group, version, p[1], p[2], p[3], null));
        case 5 -> Optional.of(new ApiPath(group, version, p[1], p[2], p[3], p[4]));
        default -> Optional.empty();
      };
    }
    return switch (p.length) {
      case 1 -> Optional.of(new ApiPath(group, version, null, p[0], null, null));
      case 2 -> Optional.of(new ApiPath(group, version, null, p[0], p[1], null));
      case 3 -> Optional.of(new ApiPath(group, version, null, p[0], p[1], p[2]));
      default -> Optional.empty();
    };
  }

  boolean isCollection() {
    return name == null;
  }

  boolean isStatus() {
    return "status".equals(subresource);
  }

  ApiPath withoutSubresource() {
    return new ApiPath(group, version, namespace, resource, name, null);
  }

  ApiPath withName(String newName) {
    return new ApiPath(group, version, namespace, resource, newName, subresource);
  }

  String groupVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** The resource's name as kubectl prints it in messages: {@code environments.threadline.dev}. */
  String qualifiedResource() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  /** Where the object this path names is stored (the collection's key has an empty name). */
  ObjectKey key() {
    return new ObjectKey(qualifiedResource(), namespace, name == null ? "" : name);
  }

  /** The canonical path, without query. */
  String path() {
    StringBuilder sb =
        new StringBuilder(group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version);
    if (namespace != null) {
      sb.append("/namespaces/").append(namespace);
    }
    sb.append('/').append(resource);
    if (name != null) {
      sb.append('/').append(name);
    }
    if (subresource != null) {
      sb.append('/').append(subresource);
    }
    return sb.toString();
  }
}
