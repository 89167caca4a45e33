package dev.threadline.local.kubeapi.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.apply.MergeSchema;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Strategic merge patch, as kube-apiserver applies it to built-in kinds: objects merge key by key
 * and {@code null} removes a key, as in a JSON merge patch, but a list with a patch merge key
 * (containers, env and volumes by name, ports by number…) merges item by item, finalizers merge as
 * a set, and the directives work: {@code $patch: replace} and {@code $patch: delete} (on an object
 * or a list's item), {@code $retainKeys}, {@code $deleteFromPrimitiveList/<list>}; {@code
 * $setElementOrder/<list>} is accepted and the order left as it is. Other lists are replaced.
 */
public final class StrategicMergePatch {
  private static final String PATCH = "$patch";
  private static final String RETAIN_KEYS = "$retainKeys";
  private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
  private static final String SET_ELEMENT_ORDER = "$setElementOrder/";

  private StrategicMergePatch() {}

  /**
   * Returns a new document: {@code target} with {@code patch} applied by {@code schema}'s merge
   * keys; neither input changes.
   *
   * @throws IllegalArgumentException for a directive kube-apiserver does not know
   */
  public static JsonNode apply(MergeSchema schema, JsonNode target, JsonNode patch) {
    if (!(patch instanceof ObjectNode patchObject)) {
      return patch == null ? null : patch.deepCopy();
    }
    String directive = patchObject.path(PATCH).asText(null);
    if ("replace".equals(directive)) {
      ObjectNode replaced = patchObject.deepCopy();
      replaced.remove(PATCH);
      return replaced;
    }
    if (directive != null && !directive.equals("merge")) {
      throw new IllegalArgumentException("unknown patch type: " + directive);
    }
    ObjectNode result =
        target instanceof ObjectNode object
            ? object.deepCopy()
            : JsonNodeFactory.instance.objectNode();
    JsonNode retain = patchObject.get(RETAIN_KEYS);
    if (retain != null && retain.isArray()) {
      Set<String> kept = new HashSet<>();
      retain.forEach(key -> kept.add(key.asText()));
      result.properties().removeIf(field -> !kept.contains(field.getKey()));
    }
    for (Map.Entry<String, JsonNode> field : patchObject.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      if (name.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        deleteValues(result, name.substring(DELETE_FROM_PRIMITIVE_LIST.length()), value);
      } else if (name.startsWith("$")) {
        if (!name.equals(PATCH)
            && !name.equals(RETAIN_KEYS)
            && !name.startsWith(SET_ELEMENT_ORDER)) {
          throw new IllegalArgumentException("unknown directive: " + name);
        }
      } else if (value.isNull()) {
        result.remove(name);
      } else if (value instanceof ObjectNode object
          && "delete".equals(object.path(PATCH).asText(null))) {
        result.remove(name);
      } else if (value instanceof ArrayNode list) {
        result.set(name, mergeList(schema.field(name), result.get(name), list));
      } else {
        result.set(name, apply(schema.field(name), result.get(name), value));
      }
    }
    return result;
  }

  private static JsonNode mergeList(MergeSchema schema, JsonNode target, ArrayNode patch) {
    String key = schema.patchMergeKey();
    boolean replaceAll = false;
    for (JsonNode item : patch) {
      replaceAll |=
          item.isObject() && item.size() == 1 && "replace".equals(item.path(PATCH).asText(null));
    }
    if (!(target instanceof ArrayNode current) || replaceAll) {
      return withoutDirectiveItems(patch);
    }
    if (schema.primitiveSet()) {
      ArrayNode result = current.deepCopy();
      for (JsonNode item : patch) {
        if (!contains(result, item)) {
          result.add(item.deepCopy());
        }
      }
      return result;
    }
    if (key == null) {
      return withoutDirectiveItems(patch);
    }
    ArrayNode result = current.deepCopy();
    for (JsonNode item : patch) {
      if (!item.isObject() || !item.has(key)) {
        continue;
      }
      int index = indexOf(result, key, item.get(key));
      if ("delete".equals(item.path(PATCH).asText(null))) {
        if (index >= 0) {
          result.remove(index);
        }
      } else if (index >= 0) {
        result.set(index, apply(schema.items(), result.get(index), item));
      } else {
        result.add(apply(schema.items(), null, item));
      }
    }
    return result;
  }

  private static ArrayNode withoutDirectiveItems(ArrayNode patch) {
    ArrayNode result = JsonNodeFactory.instance.arrayNode();
    for (JsonNode item : patch) {
      if (!(item.isObject() && item.has(PATCH) && item.size() == 1)) {
        result.add(item.isObject() ? apply(MergeSchema.root(null), null, item) : item.deepCopy());
      }
    }
    return result;
  }

  private static void deleteValues(ObjectNode object, String list, JsonNode values) {
    if (object.get(list) instanceof ArrayNode items && values.isArray()) {
      for (JsonNode value : values) {
        for (int i = items.size() - 1; i >= 0; i--) {
          if (items.get(i).equals(value)) {
            items.remove(i);
          }
        }
      }
    }
  }

  private static boolean contains(ArrayNode list, JsonNode value) {
    for (JsonNode item : list) {
      if (item.equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static int indexOf(ArrayNode list, String key, JsonNode value) {
    for (int i = 0; i < list.size(); i++) {
      if (value.equals(list.get(i).get(key))) {
        return i;
      }
    }
    return -1;
  }
}
