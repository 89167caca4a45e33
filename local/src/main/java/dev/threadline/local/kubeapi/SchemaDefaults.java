package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Structural-schema defaulting, as the API server applies a CRD's {@code default} values on writes:
 * an absent property with a default gets it, at any depth, inside objects, maps ({@code
 * additionalProperties}) and list items. Validation rules are {@link ValidationRules}' job; the
 * rest of the schema (types, required fields, pruning) is not applied.
 */
final class SchemaDefaults {
  private SchemaDefaults() {}

  /** Fills in defaults in place; does nothing without a schema. */
  static void apply(JsonNode schema, JsonNode value) {
    if (schema == null || value == null) {
      return;
    }
    if (value instanceof ObjectNode object) {
      JsonNode properties = schema.path("properties");
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        JsonNode propertySchema = property.getValue();
        if (!object.has(property.getKey()) && propertySchema.has("default")) {
          object.set(property.getKey(), propertySchema.get("default").deepCopy());
        }
        if (object.has(property.getKey())) {
          apply(propertySchema, object.get(property.getKey()));
        }
      }
      JsonNode additional = schema.path("additionalProperties");
      if (additional.isObject()) {
        for (Map.Entry<String, JsonNode> field : object.properties()) {
          if (!properties.has(field.getKey())) {
            apply(additional, field.getValue());
          }
        }
      }
    } else if (value.isArray() && schema.has("items")) {
      for (JsonNode item : value) {
        apply(schema.get("items"), item);
      }
    }
  }
}
