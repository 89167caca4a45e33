package dev.threadline.api.errors;

import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.Map;

/** How a Java target type reads in an error message: "must be a string", "must be an object". */
final class JsonTypeNames {
  private JsonTypeNames() {}

  /**
   * The phrase for a type, e.g. {@code "a string"}; {@code fractionalInput} tells a whole-number
   * target that it got {@code 1.5} rather than text, which deserves its own wording.
   */
  static String describe(Class<?> type, boolean fractionalInput) {
    if (type == null) {
      return "a valid value";
    }
    if (CharSequence.class.isAssignableFrom(type)
        || type == char.class
        || type == Character.class) {
      return "a string";
    }
    if (type.isEnum()) {
      return "a string";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "a boolean";
    }
    if (isWholeNumber(type)) {
      return fractionalInput ? "a whole number" : "a number";
    }
    if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
      return "a number";
    }
    if (type.isArray() || Collection.class.isAssignableFrom(type)) {
      return "an array";
    }
    if (Temporal.class.isAssignableFrom(type)) {
      return "an ISO 8601 timestamp";
    }
    if (type.getName().startsWith("tools.jackson.databind.node.") || type == Object.class) {
      return describeNode(type);
    }
    if (Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")) {
      return "an object";
    }
    return "a valid value";
  }

  private static String describeNode(Class<?> type) {
    return switch (type.getSimpleName()) {
      case "ObjectNode" -> "an object";
      case "ArrayNode" -> "an array";
      default -> "a valid JSON value";
    };
  }

  private static boolean isWholeNumber(Class<?> type) {
    return type == int.class
        || type == long.class
        || type == short.class
        || type == byte.class
        || type == Integer.class
        || type == Long.class
        || type == Short.class
        || type == Byte.class
        || type == java.math.BigInteger.class;
  }
}
