package dev.threadline.operator.worker;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the sandbox says one tool call did, bounded and checked before anything of it is recorded:
 * the fields of a {@code tool_call} event and the text the model reads back. Only data: nothing in
 * it can change the run's events, result or usage.
 */
public record SandboxToolResult(
    String type,
    boolean succeeded,
    String command,
    String path,
    String output,
    Integer exitCode,
    String forModel) {

  /** The most characters of a tool's output or model text kept from a sandbox's answer. */
  static final int MAX_CHARS = 262_144;

  /** Reads the sandbox's {@code result}, bounded; a type other than the tool's is refused. */
  static SandboxToolResult from(JsonNode result, String expectedType) {
    String type = result.path("type").asText("");
    if (!type.equals(expectedType)) {
      throw new SandboxException(
          "the sandbox answered a "
              + expectedType
              + " call with a result of type '"
              + bounded(type, 64)
              + "'");
    }
    String output = bounded(result.path("output").asText(""), MAX_CHARS);
    return new SandboxToolResult(
        type,
        result.path("succeeded").asBoolean(false),
        result.hasNonNull("command") ? bounded(result.get("command").asText(), MAX_CHARS) : null,
        result.hasNonNull("path") ? bounded(result.get("path").asText(), 4096) : null,
        output,
        result.hasNonNull("exitCode") && result.get("exitCode").canConvertToInt()
            ? result.get("exitCode").asInt()
            : null,
        result.hasNonNull("forModel")
            ? bounded(result.get("forModel").asText(), MAX_CHARS)
            : output);
  }

  /** A call that could not be made or whose outcome is lost; the model reads why. */
  static SandboxToolResult failure(String type, String command, String path, String reason) {
    String text = "error: " + reason;
    return new SandboxToolResult(type, false, command, path, text, null, text);
  }

  private static String bounded(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
