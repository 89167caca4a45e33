package dev.threadline.runner.tools;

import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools offered to the model, by name, and the one place a tool call becomes a {@link
 * ToolResult}: a wrong argument or a failing tool is a failed result the model can read, never an
 * exception that ends the run.
 */
public final class ToolRegistry {

  private static final Logger log = LoggerFactory.getLogger(ToolRegistry.class);

  private final Map<String, Tool> tools = new LinkedHashMap<>();

  public ToolRegistry(Collection<? extends Tool> tools) {
    tools.forEach(this::add);
  }

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

  private void add(Tool tool) {
    if (tools.putIfAbsent(tool.name(), tool) != null) {
      throw new IllegalArgumentException("two tools are named " + tool.name());
    }
  }

  public List<ToolDefinition> definitions() {
    return tools.values().stream().map(Tool::definition).toList();
  }

  public List<String> names() {
    return List.copyOf(tools.keySet());
  }

  public Optional<Tool> find(String name) {
    return Optional.ofNullable(tools.get(name));
  }

  /** Runs {@code call} with {@code tool}; every failure becomes a failed result. */
  public static ToolResult execute(Tool tool, ToolCall call) {
    Map<String, Object> arguments;
    try {
      arguments = call.arguments();
    } catch (IllegalArgumentException e) {
      return ToolResult.failure(
          tool.type(), null, null, "the arguments are not a JSON object: " + e.getMessage());
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
