package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.Utf8;
import java.util.List;
import java.util.Map;

/**
 * The sizes a cluster refuses, refused here with kube-apiserver's answers, so that what works
 * against the embedded API cannot break on a cluster:
 *
 * <ul>
 *   <li>a request body over {@link #MAX_REQUEST_BODY_BYTES}: {@code 413 RequestEntityTooLarge}
 *       (kube-apiserver's {@code --max-request-body-bytes} default), before it is read;
 *   <li>a ConfigMap's {@code data} and {@code binaryData}, or a Secret's {@code data}, over {@link
 *       #MAX_DATA_BYTES}: {@code 422 Invalid}, "Too long" (the validation of the core kinds);
 *   <li>any object over {@link ObjectStore#MAX_OBJECT_BYTES} as stored: the {@code 500} with etcd's
 *       "request is too large" that kube-apiserver passes on.
 * </ul>
 */
final class SizeLimits {
  /** kube-apiserver reads at most 3 MiB of a request's body. */
  static final int MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

  /** {@code core.MaxSecretSize}: 1 MiB of a ConfigMap's or a Secret's values, decoded. */
  static final int MAX_DATA_BYTES = 1024 * 1024;

  private SizeLimits() {}

  /** kube-apiserver's answer to a body over its limit ({@code limitedReadBody}). */
  static ApiResponse requestTooLarge() {
    return KubeStatus.failure(
        413,
        "RequestEntityTooLarge",
        "Request entity too large: limit is " + MAX_REQUEST_BODY_BYTES);
  }

  /**
   * What kube-apiserver answers when etcd refuses a write as too large: etcd's error passed on as a
   * {@code 500} without a reason (issue kubernetes/kubernetes#112152 asks for a better code).
   */
  static ApiResponse objectTooLarge() {
    return KubeStatus.failure(500, null, "etcdserver: request is too large");
  }

  /**
   * The 422 for a core ConfigMap or Secret whose values are over {@link #MAX_DATA_BYTES}, as {@code
   * ValidateConfigMap} (the whole object: field {@code []}) and {@code ValidateSecret} (field
   * {@code data}) word it; null for any other object.
   */
  static ApiResponse dataTooLong(ResourceType type, JsonNode object) {
    if (!type.group().isEmpty()) {
      return null;
    }
    String field;
    long bytes;
    switch (type.kind()) {
      case "ConfigMap" -> {
        field = "[]";
        bytes = textBytes(object.path("data")) + decodedBytes(object.path("binaryData"));
      }
      case "Secret" -> {
        field = "data";
        bytes = decodedBytes(object.path("data"));
      }
      default -> {
        return null;
      }
    }
    if (bytes <= MAX_DATA_BYTES) {
      return null;
    }
    return KubeStatus.invalidFields(
        type,
        Json.text(object, "metadata", "name"),
        List.of(
            new KubeStatus.FieldError(
                "FieldValueTooLong",
                field,
                "Too long: must have at most " + MAX_DATA_BYTES + " bytes")));
  }

  /** The values of a map of strings, in UTF-8. */
  private static long textBytes(JsonNode values) {
    long total = 0;
    for (Map.Entry<String, JsonNode> entry : values.properties()) {
      total += Utf8.length(entry.getValue().asText());
    }
    return total;
  }

  /** The values of a map of base64 strings, decoded (counted, not decoded). */
  private static long decodedBytes(JsonNode values) {
    long total = 0;
    for (Map.Entry<String, JsonNode> entry : values.properties()) {
      total += base64DecodedLength(entry.getValue().asText());
    }
    return total;
  }

  static long base64DecodedLength(String encoded) {
    int length = encoded.length();
    int padding = 0;
    while (padding < 2 && padding < length && encoded.charAt(length - 1 - padding) == '=') {
      padding++;
    }
    int remainder = length % 4;
    long decoded = (long) (length / 4) * 3 + (remainder == 3 ? 2 : remainder == 2 ? 1 : 0);
    return decoded - padding;
  }
}
