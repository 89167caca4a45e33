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

  /**
   * Drops strategic-merge directives ({@code $patch}, {@code $retainKeys}, {@code
   * $setElementOrder/...}, {@code $deleteFromPrimitiveList/...}) so that a strategic merge patch
   * can be applied as a plain merge patch. Lists are still replaced as a whole: merge keys (such as
   * a container's name) are not honoured.
   */
  public static JsonNode withoutStrategicDirectives(JsonNode patch) {
    if (patch == null) {
      return null;
    }
    JsonNode copy = patch.deepCopy();
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node.isObject()) {
      ObjectNode object = (ObjectNode) node;
      object.properties().removeIf(field -> field.getKey().startsWith("$"));
      object.forEach(JsonMergePatch::strip);
    } else if (node.isArray()) {
      node.forEach(JsonMergePatch::strip);
    }
  }
}
