package dev.threadline.api.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.Optional;

/**
 * Reads the {@code data} of a run event (fabric8's Jackson 2 tree). The operator writes camelCase
 * ({@code durationMs}) and the runner snake_case ({@code duration_ms}); readers name both
 * spellings, first match wins, so either producer's events map the same.
 */
final class EventData {
  private final JsonNode data;

  EventData(JsonNode data) {
    this.data = data == null ? MissingNode.getInstance() : data;
  }

  /** The first of the named fields that holds text, or empty. */
  Optional<String> text(String... names) {
    for (String name : names) {
      JsonNode value = data.path(name);
      if (value.isTextual()) {
        return Optional.of(value.textValue());
      }
    }
    return Optional.empty();
  }

  /** The first of the named fields that holds a whole number, or empty. */
  Optional<Long> number(String... names) {
    for (String name : names) {
      JsonNode value = data.path(name);
      if (value.isIntegralNumber() || (value.isNumber() && value.canConvertToLong())) {
        return Optional.of(value.asLong());
      }
    }
    return Optional.empty();
  }

  /** The first of the named fields that holds an object; an empty reader when none does. */
  EventData object(String... names) {
    for (String name : names) {
      JsonNode value = data.path(name);
      if (value.isObject()) {
        return new EventData(value);
      }
    }
    return new EventData(null);
  }

  /** The field's JSON as text (an object's, a string's quoted), or {@code null} when absent. */
  String json(String name) {
    JsonNode value = data.path(name);
    return value.isMissingNode() ? "null" : value.toString();
  }

  boolean isEmpty() {
    return data.isMissingNode() || data.isNull() || data.isEmpty();
  }
}
