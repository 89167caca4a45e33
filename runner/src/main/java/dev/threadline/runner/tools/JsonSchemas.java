package dev.threadline.runner.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small JSON Schemas for the built-in tools' arguments: objects of string properties. */
final class JsonSchemas {

  private JsonSchemas() {}

  /**
   * An object schema.
   *
   * @param properties name → description, in order
   * @param required the names that must be given
   */
  static Map<String, Object> stringObject(Map<String, String> properties, List<String> required) {
    Map<String, Object> props = new LinkedHashMap<>();
    properties.forEach((name, description) ->
        props.put(name, Map.of("type", "string", "description", description)));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", props);
    schema.put("required", List.copyOf(required));
    schema.put("additionalProperties", false);
    return schema;
  }
}
