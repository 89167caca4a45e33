package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Structural-schema pruning, as the API server applies it to custom resources: a field the schema
 * does not declare is dropped, at any depth, unless the schema keeps unknown fields there ({@code
 * x-kubernetes-preserve-unknown-fields}) or declares them as a map ({@code additionalProperties}).
 * {@code apiVersion}, {@code kind} and {@code metadata} at the top are the server's, never pruned.
 * An object schema that declares no properties at all is left alone (no Threadline CRD has one). A
 * declared field whose value is {@code null} is dropped unless its schema is {@code nullable}.
 */
final class SchemaPruning {
  private static final Set<String> ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");

  private SchemaPruning() {}

  /**
   * Prunes in place.
   *
   * @return the paths of the removed fields ({@code spec.bogusField}), in document order
   */
  static List<String> prune(JsonNode schema, JsonNode object) {
    List<String> removed = new ArrayList<>();
    if (schema != null && object instanceof ObjectNode root) {
      prune(schema, root, "", removed, true);
    }
    return removed;
  }

  private static void prune(
      JsonNode schema, JsonNode value, String path, List<String> removed, boolean root) {
    if (value instanceof ObjectNode object) {
      JsonNode properties = schema.path("properties");
      JsonNode additional = schema.path("additionalProperties");
      boolean keepUnknown =
          schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
              || additional.isObject()
              || additional.asBoolean(false)
              || !properties.isObject();
      for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        String name = field.getKey();
        String fieldPath = path.isEmpty() ? name : path + "." + name;
        if (root && ROOT_FIELDS.contains(name)) {
          continue;
        }
        JsonNode fieldSchema = properties.get(name);
        JsonNode declared = fieldSchema != null ? fieldSchema : additional;
        if (declared.isObject()
            && field.getValue().isNull()
            && !declared.path("nullable").asBoolean(false)) {
          // As kube-apiserver does: a null the schema does not allow is dropped before defaults and
          // validation (a client clearing a field by writing null), not refused, not warned about.
          it.remove();
        } else if (fieldSchema != null) {
          prune(fieldSchema, field.getValue(), fieldPath, removed, false);
        } else if (additional.isObject()) {
          prune(additional, field.getValue(), fieldPath, removed, false);
        } else if (!keepUnknown) {
          removed.add(fieldPath);
          it.remove();
        }
      }
    } else if (value != null && value.isArray() && schema.has("items")) {
      for (int i = 0; i < value.size(); i++) {
        prune(schema.get("items"), value.get(i), path + "[" + i + "]", removed, false);
      }
    }
  }
}
