package dev.threadline.operator.worker;

import dev.threadline.models.ToolDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in tools as the model sees them. The worker owns their definitions; the sandbox only
 * executes them (docs/sandbox-api.md), and its answer must carry the tool's {@link #type}.
 */
final class SandboxTools {
  static final String RUN_COMMAND = "run_command";

  /** One tool: what the model sees, and the contract's type of its results. */
  record SandboxTool(ToolDefinition definition, String type) {
    String name() {
      return definition.name();
    }
  }

  private final List<SandboxTool> tools;

  SandboxTools(int commandTimeoutSeconds) {
    this.tools =
        List.of(
            new SandboxTool(
                new ToolDefinition(
                    RUN_COMMAND,
                    "Run a shell command with /bin/sh -c in the workspace directory and get its"
                        + " exit code and combined stdout/stderr. Commands time out after "
                        + commandTimeoutSeconds
                        + " s; there is no stdin.",
                    schema(properties("command", "The shell command to run"), "command")),
                "command_execution"),
            new SandboxTool(
                new ToolDefinition(
                    "read_file",
                    "Read a UTF-8 text file of the workspace.",
                    schema(properties("path", "File path relative to the workspace"), "path")),
                "file_read"),
            new SandboxTool(
                new ToolDefinition(
                    "write_file",
                    "Create a file, or replace its whole content; folders are created as needed.",
                    schema(
                        properties(
                            "path", "File path relative to the workspace",
                            "content", "The whole new content of the file"),
                        "path",
                        "content")),
                "file_write"),
            new SandboxTool(
                new ToolDefinition(
                    "edit_file",
                    "Replace one exact occurrence of old_text with new_text in a text file. Include"
                        + " enough surrounding text to make old_text unique.",
                    schema(
                        properties(
                            "path", "File path relative to the workspace",
                            "old_text",
                                "The exact text to replace; it must occur exactly once in the file",
                            "new_text", "The text to put in its place"),
                        "path",
                        "old_text",
                        "new_text")),
                "file_edit"),
            new SandboxTool(
                new ToolDefinition(
                    "list_files",
                    "List a folder of the workspace (the workspace itself when path is omitted).",
                    schema(properties("path", "Folder path relative to the workspace"))),
                "file_list"));
  }

  List<ToolDefinition> definitions() {
    return tools.stream().map(SandboxTool::definition).toList();
  }

  List<String> names() {
    return tools.stream().map(SandboxTool::name).toList();
  }

  Optional<SandboxTool> find(String name) {
    return tools.stream().filter(tool -> tool.name().equals(name)).findFirst();
  }

  private static Map<String, Object> properties(String... nameThenDescription) {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (int i = 0; i < nameThenDescription.length; i += 2) {
      properties.put(
          nameThenDescription[i],
          Map.of("type", "string", "description", nameThenDescription[i + 1]));
    }
    return properties;
  }

  private static Map<String, Object> schema(Map<String, Object> properties, String... required) {
    return Map.of("type", "object", "properties", properties, "required", List.of(required));
  }
}
