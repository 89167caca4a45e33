package dev.threadline.api.mcp;

import dev.threadline.api.errors.ApiException;
import java.util.Map;
import java.util.Objects;

/**
 * A tool call's arguments, read by type: a wrong type is refused naming the argument, as the REST
 * endpoints refuse a wrong field. Sizes and contents are the services' to check (the same rules as
 * REST); the whole request is already bounded by the body limit. Unknown arguments are ignored.
 */
final class ToolArguments {
  private final Map<String, Object> values;

  ToolArguments(Map<String, Object> values) {
    this.values = Objects.requireNonNullElse(values, Map.of());
  }

  String requiredText(String name) {
    String value = text(name);
    if (value == null) {
      throw ApiException.badRequest(name, "is required");
    }
    return value;
  }

  /** The argument as a string; null when absent (or JSON null). */
  String text(String name) {
    return switch (values.get(name)) {
      case null -> null;
      case String text -> text;
      default -> throw ApiException.badRequest(name, "must be a string");
    };
  }

  /** A whole number; null when absent. */
  Integer wholeNumber(String name) {
    return switch (values.get(name)) {
      case null -> null;
      case Integer number -> number;
      case Long number when number == number.intValue() -> number.intValue();
      case Number ignored -> throw ApiException.badRequest(name, "must be a whole number");
      default -> throw ApiException.badRequest(name, "must be a whole number");
    };
  }

  boolean flag(String name, boolean absent) {
    return switch (values.get(name)) {
      case null -> absent;
      case Boolean flag -> flag;
      default -> throw ApiException.badRequest(name, "must be true or false");
    };
  }
}
