package dev.threadline.runner.serve.calls;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.runner.serve.FileApiException;
import dev.threadline.runner.serve.JsonBody;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One tool call as the worker posts it: {@code {id, tool, arguments, limits}}.
 *
 * @param id the worker's id of the call; the same id is the same call
 * @param tool one of the built-in tools
 * @param argumentsJson the arguments exactly as the model wrote them (an object, or the model's
 *     text when it was not one: the tool then fails with a message the model can read)
 * @param limits how long a command may run and how much output is kept
 */
public record CallRequest(String id, String tool, String argumentsJson, CallLimits limits) {
  static final Set<String> TOOLS =
      Set.of("run_command", "read_file", "write_file", "edit_file", "list_files");

  /** Ids go in paths ({@code /calls/{id}}): printable, no slash, bounded. */
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,200}");

  private static final ObjectMapper JSON = new ObjectMapper();

  public static CallRequest parse(byte[] body) {
    JsonNode root = JsonBody.object(body, "a tool call");
    String id = text(root, "id");
    requireId(id);
    String tool = text(root, "tool");
    if (!TOOLS.contains(tool)) {
      throw FileApiException.badRequest("tool must be one of " + TOOLS.stream().sorted().toList());
    }
    return new CallRequest(id, tool, arguments(root.get("arguments")), CallLimits.of(root));
  }

  /** Refuses an id that cannot be a call's. */
  public static void requireId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw FileApiException.badRequest(
          "id must be 1 to 200 letters, digits or any of _.:- (got "
              + (id == null ? "none" : "'" + abbreviate(id) + "'")
              + ")");
    }
  }

  /** Whether {@code other} asks for the same thing: the same tool with the same arguments. */
  boolean sameCallAs(CallRequest other) {
    return tool.equals(other.tool)
        && normalised(argumentsJson).equals(normalised(other.argumentsJson));
  }

  private static String text(JsonNode root, String field) {
    JsonNode value = root.get(field);
    if (value == null || !value.isTextual() || value.asText().isBlank()) {
      throw FileApiException.badRequest(field + " is required and must be a string");
    }
    return value.asText();
  }

  private static String arguments(JsonNode arguments) {
    if (arguments == null || arguments.isNull()) {
      return "{}";
    }
    return arguments.isTextual() ? arguments.asText() : arguments.toString();
  }

  /** Arguments that differ only in spacing are the same arguments. */
  private static Object normalised(String argumentsJson) {
    try {
      return JSON.readTree(argumentsJson);
    } catch (JsonProcessingException e) {
      return argumentsJson;
    }
  }

  private static String abbreviate(String id) {
    return id.length() > 40 ? id.substring(0, 40) + "…" : id;
  }
}
