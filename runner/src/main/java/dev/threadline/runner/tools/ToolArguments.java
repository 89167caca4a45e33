package dev.threadline.runner.tools;

import java.util.Map;

/** Reads a tool call's arguments, with errors the model can act on. */
final class ToolArguments {

  private ToolArguments() {}

  static String requiredString(Map<String, Object> arguments, String name) {
    Object value = arguments.get(name);
    if (value == null) {
      throw new ToolException("missing argument '" + name + "'");
    }
    if (!(value instanceof String text)) {
      throw new ToolException("argument '" + name + "' must be a string");
    }
    return text;
  }

  static String optionalString(Map<String, Object> arguments, String name, String fallback) {
    Object value = arguments.get(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof String text)) {
      throw new ToolException("argument '" + name + "' must be a string");
    }
    return text.isBlank() ? fallback : text;
  }
}
