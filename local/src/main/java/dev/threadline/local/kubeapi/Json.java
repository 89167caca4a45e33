package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The one Jackson 2 mapper of the embedded API. Jackson 2 because fabric8's model and the mock
 * store speak it; Spring's Jackson 3 never sees these documents.
 */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  static JsonNode parse(byte[] bytes) {
    try {
      return MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
  }

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] bytes(Object value) {
    return write(value).getBytes(StandardCharsets.UTF_8);
  }

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Whether two documents are the same JSON, whatever Java type holds each number. */
  static boolean sameContent(JsonNode a, JsonNode b) {
    return a.equals(
        (x, y) ->
            x.equals(y)
                    || (x.isNumber()
                        && y.isNumber()
                        && x.decimalValue().compareTo(y.decimalValue()) == 0)
                ? 0
                : 1,
        b);
  }

  /** The object's {@code metadata}, created when absent. */
  static ObjectNode metadata(ObjectNode object) {
    JsonNode metadata = object.get("metadata");
    if (metadata instanceof ObjectNode existing) {
      return existing;
    }
    return object.putObject("metadata");
  }

  /** Text of a field path such as ("metadata", "name"); null when absent or not a scalar. */
  static String text(JsonNode node, String... path) {
    JsonNode current = node;
    for (String field : path) {
      if (current == null) {
        return null;
      }
      current = current.get(field);
    }
    return current == null || current.isNull() || current.isContainerNode()
        ? null
        : current.asText();
  }
}
