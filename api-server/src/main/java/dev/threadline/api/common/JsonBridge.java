package dev.threadline.api.common;

import io.fabric8.kubernetes.client.utils.Serialization;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Moves JSON trees between fabric8's Jackson 2 (custom resource fields such as a thread's metadata)
 * and Spring's Jackson 3 (request and response bodies). Neither can serialise the other's nodes, so
 * trees cross as text.
 */
public final class JsonBridge {
  private static final JsonMapper JACKSON3 = JsonMapper.builder().build();

  private JsonBridge() {}

  /** A Jackson 3 copy of a custom resource's tree; null stays null. */
  public static JsonNode fromResource(com.fasterxml.jackson.databind.JsonNode node) {
    return node == null ? null : JACKSON3.readTree(node.toString());
  }

  /** A Jackson 2 copy of a request's tree, to store in a custom resource; null stays null. */
  public static com.fasterxml.jackson.databind.JsonNode toResource(JsonNode node) {
    if (node == null) {
      return null;
    }
    try {
      return Serialization.jsonMapper().readTree(JACKSON3.writeValueAsString(node));
    } catch (com.fasterxml.jackson.core.JsonProcessingException impossible) {
      throw new IllegalStateException("A JSON tree did not survive serialisation", impossible);
    }
  }
}
