package dev.threadline.api.idempotency;

import dev.threadline.core.hashing.Sha256;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What makes two requests "the same" for an idempotency key: the method, the path (with its query)
 * and the body in canonical form (the parsed request, object keys sorted), hashed. Whitespace and
 * key order do not count; any change of a value does.
 */
public record RequestFingerprint(String hash) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** {@code body} is the parsed request object (a DTO) or null when the request has none. */
  public static RequestFingerprint of(String method, String pathAndQuery, Object body) {
    JsonNode tree = body == null ? JsonNodeFactory.instance.nullNode() : JSON.valueToTree(body);
    String canonical =
        method + "\n" + pathAndQuery + "\n" + JSON.writeValueAsString(canonical(tree));
    return new RequestFingerprint(Sha256.hex(canonical));
  }

  /** The fingerprint of a servlet request whose body was parsed into {@code body}. */
  public static RequestFingerprint of(HttpServletRequest request, Object body) {
    String query = request.getQueryString();
    return of(
        request.getMethod(), request.getRequestURI() + (query == null ? "" : "?" + query), body);
  }

  private static JsonNode canonical(JsonNode node) {
    if (node.isObject()) {
      Map<String, JsonNode> sorted = new TreeMap<>();
      node.properties()
          .forEach(entry -> {
            if (!entry.getValue().isNull()) {
              // An absent field and an explicit null mean the same to every endpoint.
              sorted.put(entry.getKey(), canonical(entry.getValue()));
            }
          });
      ObjectNode object = JsonNodeFactory.instance.objectNode();
      sorted.forEach(object::set);
      return object;
    }
    if (node.isArray()) {
      ArrayNode array = JsonNodeFactory.instance.arrayNode();
      node.forEach(item -> array.add(canonical(item)));
      return array;
    }
    return node;
  }
}
