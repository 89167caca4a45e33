package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * JSON Merge Patch as RFC 7386 defines it: objects merge key by key, {@code null} removes a key,
 * and every other value (lists included) replaces the target's value. The mock's own merge appends
 * lists and keeps removed keys as nulls, which makes status conditions grow on every patch.
 */
public final class JsonMergePatch {
  private JsonMergePatch() {}

  /** Returns a new document: {@code target} with {@code patch} applied; neither input changes. */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    if (patch == null || !patch.isObject()) {
      return patch == null ? null : patch.deepCopy();
    }
    ObjectNode result =
        target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : Json.object();
    for (Map.Entry<String, JsonNode> field : patch.properties()) {
      if (field.getValue().isNull()) {
        result.remove(field.getKey());
      } else {
        result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
      }
    }
    return result;
  }
}
