package dev.threadline.local.kubeapi.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A set of field paths, as structured-merge-diff's {@code fieldpath.Set}, stored as the tree that
 * {@code managedFields[].fieldsV1} serialises: each step is {@code f:<field>}, {@code k:<key fields
 * as JSON>} (an item of a map list), {@code v:<value as JSON>} (an item of a set) or {@code
 * i:<index>}; {@code "."} marks a node that is itself in the set besides its children.
 */
public final class FieldSet {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private final TreeMap<String, FieldSet> children = new TreeMap<>();
  private boolean member;

  /** Inserts one path (its steps as fieldsV1 names). */
  void insert(List<String> path) {
    FieldSet node = this;
    for (String step : path) {
      node = node.children.computeIfAbsent(step, s -> new FieldSet());
    }
    node.member = true;
  }

  boolean contains(List<String> path) {
    FieldSet node = find(path);
    return node != null && node.member;
  }

  /** Whether the set holds {@code path} or any path below it. */
  boolean touches(List<String> path) {
    FieldSet node = find(path);
    return node != null && (node.member || !node.isEmpty());
  }

  private FieldSet find(List<String> path) {
    FieldSet node = this;
    for (String step : path) {
      node = node.children.get(step);
      if (node == null) {
        return null;
      }
    }
    return node;
  }

  boolean isEmpty() {
    if (member) {
      return false;
    }
    for (FieldSet child : children.values()) {
      if (!child.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** Every path in the set, in order. */
  List<List<String>> paths() {
    List<List<String>> all = new ArrayList<>();
    walk(new ArrayList<>(), (path, node) -> all.add(List.copyOf(path)));
    return all;
  }

  private void walk(List<String> prefix, BiConsumer<List<String>, FieldSet> visitor) {
    if (member) {
      visitor.accept(prefix, this);
    }
    for (Map.Entry<String, FieldSet> child : children.entrySet()) {
      prefix.add(child.getKey());
      child.getValue().walk(prefix, visitor);
      prefix.remove(prefix.size() - 1);
    }
  }

  FieldSet union(FieldSet other) {
    FieldSet result = copy();
    other.paths().forEach(result::insert);
    return result;
  }

  FieldSet minus(FieldSet other) {
    FieldSet result = new FieldSet();
    for (List<String> path : paths()) {
      if (!other.contains(path)) {
        result.insert(path);
      }
    }
    return result;
  }

  FieldSet intersection(FieldSet other) {
    FieldSet result = new FieldSet();
    for (List<String> path : paths()) {
      if (other.contains(path)) {
        result.insert(path);
      }
    }
    return result;
  }

  FieldSet copy() {
    FieldSet result = new FieldSet();
    paths().forEach(result::insert);
    return result;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FieldSet set && paths().equals(set.paths());
  }

  @Override
  public int hashCode() {
    return paths().hashCode();
  }

  /** The set as {@code fieldsV1}. */
  public ObjectNode toFieldsV1() {
    ObjectNode node = MAPPER.createObjectNode();
    if (member && !children.isEmpty()) {
      node.putObject(".");
    }
    for (Map.Entry<String, FieldSet> child : children.entrySet()) {
      if (!child.getValue().isEmpty()) {
        node.set(child.getKey(), child.getValue().toFieldsV1());
      }
    }
    return node;
  }

  /** Reads {@code fieldsV1}; anything but an object of objects reads as the empty set. */
  public static FieldSet fromFieldsV1(JsonNode fieldsV1) {
    FieldSet set = new FieldSet();
    if (fieldsV1 != null && fieldsV1.isObject()) {
      read(fieldsV1, set, true);
    }
    return set;
  }

  private static void read(JsonNode node, FieldSet into, boolean root) {
    if (!root && node.isEmpty()) {
      into.member = true;
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      if (field.getKey().equals(".")) {
        into.member = true;
      } else if (field.getValue().isObject()) {
        FieldSet child = into.children.computeIfAbsent(field.getKey(), k -> new FieldSet());
        read(field.getValue(), child, false);
      }
    }
  }

  /** A path as structured-merge-diff prints it: {@code .spec.containers[name="app"].image}. */
  static String describe(List<String> path) {
    StringBuilder text = new StringBuilder();
    for (String step : path) {
      String rest = step.substring(2);
      switch (step.charAt(0)) {
        case 'f' -> text.append('.').append(rest);
        case 'i' -> text.append('[').append(rest).append(']');
        case 'v' -> text.append("[=").append(rest).append(']');
        case 'k' -> {
          List<String> pairs = new ArrayList<>();
          parse(rest).properties().forEach(e -> pairs.add(e.getKey() + "=" + e.getValue()));
          text.append('[').append(String.join(",", pairs)).append(']');
        }
        default -> text.append(step);
      }
    }
    return text.toString();
  }

  static String field(String name) {
    return "f:" + name;
  }

  /** The step of a map list's item: its key fields, sorted, as JSON. */
  static String key(JsonNode item, List<String> keys) {
    TreeMap<String, JsonNode> fields = new TreeMap<>();
    for (String key : keys) {
      if (item.has(key)) {
        fields.put(key, item.get(key));
      }
    }
    return "k:" + write(MAPPER.valueToTree(fields));
  }

  static String value(JsonNode item) {
    return "v:" + write(item);
  }

  static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      return MAPPER.createObjectNode();
    }
  }

  private static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
