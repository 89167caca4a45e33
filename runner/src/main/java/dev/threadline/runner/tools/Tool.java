package dev.threadline.runner.tools;

import dev.threadline.models.ToolDefinition;
import java.util.Map;

/**
 * Something the model may ask the runner to do. Implementations are safe to call from any thread.
 */
public interface Tool {

  /** The name, description and argument schema the model sees. */
  ToolDefinition definition();

  /**
   * The contract's tool type: command_execution, file_read, file_write, file_edit, file_list or
   * mcp_tool.
   */
  String type();

  /**
   * Runs the tool.
   *
   * @param arguments the call's arguments, parsed from the model's JSON
   * @throws ToolException when the arguments are wrong or the tool cannot do what was asked; the
   *     message goes back to the model, so it should say how to do better
   */
  ToolResult run(Map<String, Object> arguments);

  default String name() {
    return definition().name();
  }
}
