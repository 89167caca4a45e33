package dev.threadline.local.kubeapi;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One HTTP request to the embedded API, with its query already decoded. */
record ApiRequest(
    String method,
    String path,
    Map<String, List<String>> query,
    String accept,
    String contentType,
    byte[] body,
    String userAgent) {

  /** The longest field manager name kube-apiserver accepts. */
  static final int MAX_FIELD_MANAGER_LENGTH = 128;

  String param(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  boolean flag(String name) {
    String value = param(name);
    return "true".equalsIgnoreCase(value) || "1".equals(value);
  }

  boolean isWatch() {
    return "GET".equals(method) && flag("watch");
  }

  /** Whether the client asks for a {@code meta.k8s.io} Table ({@code kubectl get}). */
  boolean wantsTable() {
    return accept != null && accept.contains("as=Table");
  }

  /** This request with a {@code metadata.name} field selector for {@code name}, and no other. */
  ApiRequest watchingOnly(String name) {
    Map<String, List<String>> narrowed = new LinkedHashMap<>(query);
    narrowed.put("fieldSelector", List.of("metadata.name=" + name));
    return new ApiRequest(method, path, narrowed, accept, contentType, body, userAgent);
  }

  /**
   * Who makes this write, as kube-apiserver names a field manager: the {@code fieldManager}
   * parameter, else the client's User-Agent up to its first {@code /} ({@code
   * fabric8-kubernetes-client}, {@code kubectl}), else {@code unknown}.
   */
  String fieldManager() {
    String named = param("fieldManager");
    if (named != null && !named.isEmpty()) {
      return named;
    }
    if (userAgent == null || userAgent.isBlank()) {
      return "unknown";
    }
    int slash = userAgent.indexOf('/');
    String prefix = (slash < 0 ? userAgent : userAgent.substring(0, slash)).trim();
    return prefix.length() > MAX_FIELD_MANAGER_LENGTH
        ? prefix.substring(0, MAX_FIELD_MANAGER_LENGTH)
        : prefix;
  }

  String bodyText() {
    return body == null ? "" : new String(body, StandardCharsets.UTF_8);
  }

  boolean hasBody() {
    return body != null && body.length > 0;
  }
}
