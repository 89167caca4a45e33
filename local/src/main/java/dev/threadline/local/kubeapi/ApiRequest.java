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
    byte[] body) {

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
    return new ApiRequest(method, path, narrowed, accept, contentType, body);
  }

  String bodyText() {
    return body == null ? "" : new String(body, StandardCharsets.UTF_8);
  }

  boolean hasBody() {
    return body != null && body.length > 0;
  }
}
