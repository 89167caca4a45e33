package dev.threadline.local.kubeapi.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON Schema error as kube-apiserver reports it (kube-openapi's messages, in the field errors of
 * apimachinery): {@code Invalid value: "string": spec.size in body must be of type integer:
 * "string"}, {@code Unsupported value: "x": supported values: "a", "b"}, {@code Required value},
 * {@code Too long: must have at most 64 bytes}, {@code Too many: 4: must have at most 3 items}.
 */
final class KubeSchemaErrors {
  private KubeSchemaErrors() {}

  /** The kube form of {@code error} found at {@code field}; null for a keyword kube has not. */
  static SchemaValidation.Problem toProblem(Error error, String field) {
    JsonNode value = error.getInstanceNode();
    JsonNode limit = error.getSchemaNode();
    String at = field.isEmpty() ? "<nil>" : field;
    return switch (error.getKeyword()) {
      case "type", "nullable" ->
          invalid(
              "FieldValueTypeInvalid",
              at,
              quote(typeName(value)),
              field
                  + " in body must be of type "
                  + expectedType(limit)
                  + ": "
                  + quote(typeName(value)));
      case "enum" ->
          new SchemaValidation.Problem(
              "FieldValueNotSupported",
              at,
              "Unsupported value: " + render(value) + ": supported values: " + supported(limit));
      case "required" -> {
        String missing = error.getProperty();
        String path = field.isEmpty() ? missing : field + "." + missing;
        yield new SchemaValidation.Problem("FieldValueRequired", path, "Required value");
      }
      case "minimum" ->
          invalid(
              at,
              value,
              field
                  + " in body should be greater than "
                  + (exclusive(error) ? "" : "or equal to ")
                  + limit.asText());
      case "maximum" ->
          invalid(
              at,
              value,
              field
                  + " in body should be less than "
                  + (exclusive(error) ? "" : "or equal to ")
                  + limit.asText());
      case "exclusiveMinimum", "exclusiveMaximum" -> null; // reported with minimum/maximum
      case "minLength" ->
          invalid(
              at, value, field + " in body should be at least " + limit.asText() + " chars long");
      case "maxLength" ->
          new SchemaValidation.Problem(
              "FieldValueTooLong",
              at,
              "Too long: must have at most " + limit.asText() + bytes(limit.asInt()));
      case "minItems" ->
          invalid(at, value, field + " in body should have at least " + limit.asText() + " items");
      case "maxItems" ->
          new SchemaValidation.Problem(
              "FieldValueTooMany",
              at,
              "Too many: " + value.size() + ": must have at most " + limit.asText() + " items");
      case "minProperties" ->
          invalid(
              at, value, field + " in body should have at least " + limit.asText() + " properties");
      case "maxProperties" ->
          invalid(
              at, value, field + " in body should have at most " + limit.asText() + " properties");
      case "pattern" ->
          invalid(at, value, field + " in body should match '" + limit.asText() + "'");
      case "format" ->
          invalid(
              at,
              value,
              field + " in body must be of type " + limit.asText() + ": " + render(value));
      case "multipleOf" ->
          invalid(at, value, field + " in body should be a multiple of " + limit.asText());
      case "uniqueItems" -> invalid(at, value, field + " in body shouldn't contain duplicates");
      default -> invalid(at, value, error.getMessage());
    };
  }

  private static SchemaValidation.Problem invalid(String field, JsonNode value, String detail) {
    return invalid("FieldValueInvalid", field, render(value), detail);
  }

  private static SchemaValidation.Problem invalid(
      String reason, String field, String renderedValue, String detail) {
    return new SchemaValidation.Problem(
        reason, field, "Invalid value: " + renderedValue + ": " + detail);
  }

  private static boolean exclusive(Error error) {
    Object[] arguments = error.getArguments();
    return error.getMessageKey() != null && error.getMessageKey().contains("exclusive")
        || arguments != null
            && arguments.length > 0
            && String.valueOf(arguments[arguments.length - 1]).contains("exclusive");
  }

  private static String bytes(int limit) {
    return limit == 1 ? " byte" : " bytes";
  }

  private static String expectedType(JsonNode typeKeyword) {
    return typeKeyword == null || typeKeyword.isMissingNode() ? "null" : typeKeyword.asText();
  }

  /** The JSON type of a value, as kube-openapi names it in a type error. */
  static String typeName(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "null";
    }
    if (value.isTextual()) {
      return "string";
    }
    if (value.isIntegralNumber()) {
      return "integer";
    }
    if (value.isNumber()) {
      return "number";
    }
    if (value.isBoolean()) {
      return "boolean";
    }
    return value.isArray() ? "array" : "object";
  }

  /** A value as apimachinery prints it after "Invalid value:": strings quoted, numbers bare. */
  static String render(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "null";
    }
    if (value.isTextual()) {
      return quote(value.asText());
    }
    if (value.isValueNode()) {
      return value.asText();
    }
    return quote(typeName(value));
  }

  private static String supported(JsonNode values) {
    List<String> rendered = new ArrayList<>();
    if (values != null) {
      values.forEach(v -> rendered.add(render(v)));
    }
    return String.join(", ", rendered);
  }

  private static String quote(String text) {
    StringBuilder quoted = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        default -> quoted.append(c);
      }
    }
    return quoted.append('"').toString();
  }
}
