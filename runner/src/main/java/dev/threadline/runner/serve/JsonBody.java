package dev.threadline.runner.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** A request body that must be one JSON object; anything else is a 400 saying so. */
public final class JsonBody {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonBody() {}

  /**
   * @param what what the object is, for the message (e.g. "a JSON-RPC message")
   */
  public static JsonNode object(byte[] body, String what) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw FileApiException.badRequest("the body is not JSON; it must be " + what);
    }
    if (root == null || !root.isObject()) {
      throw FileApiException.badRequest("the body must be " + what + " (a JSON object)");
    }
    return root;
  }
}
