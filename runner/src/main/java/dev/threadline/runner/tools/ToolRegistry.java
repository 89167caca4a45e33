package dev.threadline.runner.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in tools, and the one place a tool call becomes a {@link ToolResult}: a wrong argument
 * or a failing tool is a failed result the model can read, never an exception that ends the call.
 */
public final class ToolRegistry {

  private static final Logger log = LoggerFactory.getLogger(ToolRegistry.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  private ToolRegistry() {}

  /** The built-in tools: run_command, read_file, write_file, edit_file and list_files. */
  public static List<Tool> builtIns(
      CommandTool commands, WorkspacePaths paths, int outputLimitBytes) {
    return List.of(
        commands,
        new ReadFileTool(paths, outputLimitBytes),
        new WriteFileTool(paths),
        new EditFileTool(paths),
        new ListFilesTool(paths));
  }

  /**
   * Runs {@code tool} with the arguments the model wrote (a JSON object; blank means none); every
   * failure becomes a failed result.
   */
  public static ToolResult execute(Tool tool, String argumentsJson) {
    Map<String, Object> arguments;
    try {
      arguments = arguments(argumentsJson);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      String reason =
          e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
      return ToolResult.failure(
          tool.type(), null, null, "the arguments are not a JSON object: " + reason);
    }
    try {
      return tool.run(arguments);
    } catch (ToolException e) {
      return ToolResult.failure(
          tool.type(), commandOf(tool, arguments), pathOf(tool, arguments), e.getMessage());
    } catch (RuntimeException e) {
      log.warn("Tool {} failed unexpectedly", tool.name(), e);
      return ToolResult.failure(
          tool.type(),
          commandOf(tool, arguments),
          pathOf(tool, arguments),
          "the tool failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static Map<String, Object> arguments(String argumentsJson)
      throws JsonProcessingException {
    if (argumentsJson == null || argumentsJson.isBlank()) {
      return Map.of();
    }
    Map<String, Object> parsed = JSON.readValue(argumentsJson, OBJECT);
    if (parsed == null) {
      throw new IllegalArgumentException("null is not an object");
    }
    return parsed;
  }

  /** A failed call still shows what it tried; MCP tools' arguments mean what their server says. */
  private static String commandOf(Tool tool, Map<String, Object> arguments) {
    return tool.type().equals("command_execution")
            && arguments.get("command") instanceof String command
        ? command
        : null;
  }

  private static String pathOf(Tool tool, Map<String, Object> arguments) {
    return tool.type().startsWith("file_") && arguments.get("path") instanceof String path
        ? path
        : null;
  }
}
