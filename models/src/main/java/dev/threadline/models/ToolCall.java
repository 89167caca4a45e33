package dev.threadline.models;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/**
 * The model asking to run a tool.
 *
 * @param id the provider's id of this call; the tool result quotes it in {@link
 *     ChatMessage#toolCallId()}
 * @param name the {@link ToolDefinition#name()} of the tool to run
 * @param argumentsJson the arguments as a JSON object, exactly as the model wrote them (it may be
 *     malformed: models make mistakes, and the agent loop reports them back rather than failing)
 */
public record ToolCall(String id, String name, String argumentsJson) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  public ToolCall {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("a tool call needs an id");
    }
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a tool call needs a tool name");
    }
    argumentsJson = argumentsJson == null || argumentsJson.isBlank() ? "{}" : argumentsJson;
  }

  /** A call whose arguments are serialised from a map. */
  public static ToolCall of(String id, String name, Map<String, ?> arguments) {
    try {
      return new ToolCall(id, name, JSON.writeValueAsString(arguments));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("tool arguments are not serialisable to JSON", e);
    }
  }

  /**
   * The arguments as a map (nested objects become maps, arrays lists).
   *
   * @throws IllegalArgumentException when {@link #argumentsJson()} is not a JSON object
   */
  public Map<String, Object> arguments() {
    try {
      Map<String, Object> parsed = JSON.readValue(argumentsJson, OBJECT);
      if (parsed == null) {
        throw new IllegalArgumentException(
            "arguments of tool call " + id + " are null, not an object");
      }
      return parsed;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "arguments of tool call "
              + id
              + " ("
              + name
              + ") are not a JSON object: "
              + e.getOriginalMessage(),
          e);
    }
  }
}
