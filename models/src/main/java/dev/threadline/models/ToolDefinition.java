package dev.threadline.models;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A tool the model may call.
 *
 * @param name the name the model uses in its {@link ToolCall}, e.g. {@code run_command}
 * @param description what the tool does, written for the model
 * @param parametersJsonSchema a JSON Schema object describing the arguments, e.g. {@code {"type":
 *     "object", "properties": {...}, "required": [...]}}
 */
public record ToolDefinition(
    String name, String description, Map<String, Object> parametersJsonSchema) {

  public ToolDefinition {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a tool needs a name");
    }
    description = Objects.requireNonNullElse(description, "");
    // Schemas may hold nulls and nested maps: keep the caller's structure, but not a mutable view.
    parametersJsonSchema =
        parametersJsonSchema == null
            ? Map.of("type", "object", "properties", Map.of())
            : Collections.unmodifiableMap(new LinkedHashMap<>(parametersJsonSchema));
  }
}
