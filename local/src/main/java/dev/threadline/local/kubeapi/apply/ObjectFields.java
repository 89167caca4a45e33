package dev.threadline.local.kubeapi.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The field paths of objects, by their {@link MergeSchema}, as structured-merge-diff finds them:
 * the fields an object sets ({@link #of}), the fields a write changes ({@link #changed}), an
 * applied configuration merged into a live object ({@link #merge}) and a field taken out ({@link
 * #remove}). A path ends at a scalar, an empty object, an atomic map or list, a set's value or a
 * map list's item (which has its own fields below it). Fields only the server sets are never
 * counted.
 */
final class ObjectFields {
  /** What the server sets: nobody manages these. */
  private static final Set<String> ROOT_FIELDS = Set.of("apiVersion", "kind");

  private static final Set<String> SERVER_METADATA =
      Set.of(
          "name",
          "namespace",
          "uid",
          "resourceVersion",
          "generation",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "managedFields",
          "selfLink");

  private ObjectFields() {}

  /** Every field {@code object} sets (structured-merge-diff's {@code ToFieldSet}). */
  static FieldSet of(MergeSchema schema, JsonNode object) {
    FieldSet set = new FieldSet();
    collect(schema, object, new ArrayList<>(), set, true);
    return set;
  }

  private static void collect(
      MergeSchema schema, JsonNode value, List<String> path, FieldSet set, boolean root) {
    if (value instanceof ObjectNode object) {
      if (!root && (object.isEmpty() || schema.atomicMap())) {
        set.insert(path);
        return;
      }
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        if (skipped(path, field.getKey(), root)) {
          continue;
        }
        path.add(FieldSet.field(field.getKey()));
        MergeSchema child = schema.field(field.getKey());
        collect(child, field.getValue(), path, set, false);
        if (!root
            && field.getValue().isObject()
            && !field.getValue().isEmpty()
            && schema.declared()
            && !schema.isStructField(field.getKey())) {
          set.insert(path); // a map's entry is a value of its own, as a list's item is
        }
        path.remove(path.size() - 1);
      }
    } else if (value instanceof ArrayNode list) {
      MergeSchema.ListType type = schema.listType();
      if (type == MergeSchema.ListType.ATOMIC || list.isEmpty()) {
        set.insert(path);
        return;
      }
      for (JsonNode item : list) {
        path.add(step(schema, item));
        if (type == MergeSchema.ListType.MAP) {
          collect(schema.items(), item, path, set, false);
        }
        set.insert(path);
        path.remove(path.size() - 1);
      }
    } else {
      set.insert(path);
    }
  }

  private static boolean skipped(List<String> path, String field, boolean root) {
    if (root) {
      return ROOT_FIELDS.contains(field);
    }
    return path.size() == 1 && path.get(0).equals("f:metadata") && SERVER_METADATA.contains(field);
  }

  private static String step(MergeSchema list, JsonNode item) {
    return list.listType() == MergeSchema.ListType.MAP && item.isObject()
        ? FieldSet.key(item, list.listKeys())
        : FieldSet.value(item);
  }

  /**
   * The fields {@code after} sets that {@code before} did not, or set to another value: what an
   * update's manager comes to own (structured-merge-diff's added and modified fields).
   */
  static FieldSet changed(MergeSchema schema, JsonNode before, JsonNode after) {
    FieldSet set = new FieldSet();
    changed(schema, before, after, new ArrayList<>(), set, true);
    return set;
  }

  private static void changed(
      MergeSchema schema,
      JsonNode before,
      JsonNode after,
      List<String> path,
      FieldSet set,
      boolean root) {
    if (before == null || before.isMissingNode()) {
      FieldSet added = new FieldSet();
      collect(schema, after, new ArrayList<>(path), added, root);
      added.paths().forEach(set::insert);
      return;
    }
    if (after instanceof ObjectNode object && before.isObject() && !schema.atomicMap()) {
      if (!root && object.isEmpty() != before.isEmpty()) {
        set.insert(path);
      }
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        if (skipped(path, field.getKey(), root)) {
          continue;
        }
        path.add(FieldSet.field(field.getKey()));
        JsonNode old = before.get(field.getKey());
        changed(schema.field(field.getKey()), old, field.getValue(), path, set, false);
        if (!root
            && old == null
            && field.getValue().isObject()
            && schema.declared()
            && !schema.isStructField(field.getKey())) {
          set.insert(path);
        }
        path.remove(path.size() - 1);
      }
    } else if (after instanceof ArrayNode list
        && before.isArray()
        && schema.listType() != MergeSchema.ListType.ATOMIC
        && !list.isEmpty()) {
      for (JsonNode item : list) {
        String step = step(schema, item);
        JsonNode old = find(schema, (ArrayNode) before, step);
        path.add(step);
        if (schema.listType() == MergeSchema.ListType.MAP) {
          changed(schema.items(), old, item, path, set, false);
        }
        if (old == null) {
          set.insert(path);
        }
        path.remove(path.size() - 1);
      }
    } else if (!before.equals(after)) {
      set.insert(path);
    }
  }

  /** {@code config} merged into {@code live}: the object an apply leads to (before removals). */
  static JsonNode merge(MergeSchema schema, JsonNode live, JsonNode config) {
    if (live == null || live.isMissingNode() || live.isNull()) {
      return config.deepCopy();
    }
    if (config instanceof ObjectNode object && live.isObject() && !schema.atomicMap()) {
      ObjectNode result = ((ObjectNode) live).deepCopy();
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        result.set(
            field.getKey(),
            merge(schema.field(field.getKey()), live.get(field.getKey()), field.getValue()));
      }
      return result;
    }
    if (config instanceof ArrayNode list
        && live.isArray()
        && schema.listType() != MergeSchema.ListType.ATOMIC) {
      ArrayNode result = ((ArrayNode) live).deepCopy();
      for (JsonNode item : list) {
        String step = step(schema, item);
        int index = indexOf(schema, result, step);
        if (index < 0) {
          result.add(item.deepCopy());
        } else if (schema.listType() == MergeSchema.ListType.MAP) {
          result.set(index, merge(schema.items(), result.get(index), item));
        }
      }
      return result;
    }
    return config.deepCopy();
  }

  /** Takes the field at {@code path} out of {@code object}, when it is there. */
  static void remove(JsonNode object, List<String> path) {
    JsonNode parent = object;
    for (int i = 0; i < path.size() - 1 && parent != null; i++) {
      parent = child(parent, path.get(i));
    }
    if (parent == null) {
      return;
    }
    String last = path.get(path.size() - 1);
    if (parent instanceof ObjectNode node && last.startsWith("f:")) {
      node.remove(last.substring(2));
    } else if (parent instanceof ArrayNode list) {
      int index = indexOfStep(list, last);
      if (index >= 0) {
        list.remove(index);
      }
    }
  }

  private static JsonNode child(JsonNode node, String step) {
    if (step.startsWith("f:")) {
      return node.get(step.substring(2));
    }
    if (node instanceof ArrayNode list) {
      int index = indexOfStep(list, step);
      return index < 0 ? null : list.get(index);
    }
    return null;
  }

  private static JsonNode find(MergeSchema schema, ArrayNode list, String step) {
    int index = indexOf(schema, list, step);
    return index < 0 ? null : list.get(index);
  }

  private static int indexOf(MergeSchema schema, ArrayNode list, String step) {
    for (int i = 0; i < list.size(); i++) {
      if (step(schema, list.get(i)).equals(step)) {
        return i;
      }
    }
    return -1;
  }

  /** The index of the item a {@code k:}, {@code v:} or {@code i:} step names; -1 when none. */
  private static int indexOfStep(ArrayNode list, String step) {
    String rest = step.substring(2);
    switch (step.charAt(0)) {
      case 'i' -> {
        try {
          int index = Integer.parseInt(rest);
          return index < list.size() ? index : -1;
        } catch (NumberFormatException e) {
          return -1;
        }
      }
      case 'v' -> {
        JsonNode value = FieldSet.parse(rest);
        for (int i = 0; i < list.size(); i++) {
          if (list.get(i).equals(value)) {
            return i;
          }
        }
        return -1;
      }
      case 'k' -> {
        JsonNode keys = FieldSet.parse(rest);
        for (int i = 0; i < list.size(); i++) {
          JsonNode item = list.get(i);
          boolean matches = item.isObject();
          for (Map.Entry<String, JsonNode> key : keys.properties()) {
            matches = matches && key.getValue().equals(item.get(key.getKey()));
          }
          if (matches) {
            return i;
          }
        }
        return -1;
      }
      default -> {
        return -1;
      }
    }
  }
}
