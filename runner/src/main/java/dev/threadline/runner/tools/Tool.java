package dev.threadline.runner.tools;

import java.util.Map;

/**
 * Something the worker may ask the sandbox to do. The worker owns what the model sees of a tool
 * (its description and argument schema); the sandbox knows it by name and runs it. Implementations
 * are safe to call from any thread.
 */
public interface Tool {

  /** The name the worker calls it by: run_command, read_file, write_file, edit_file, list_files. */
  String name();

  /** The contract's tool type: command_execution, file_read, file_write, file_edit or file_list. */
  String type();

  /**
   * Runs the tool.
   *
   * @param arguments the call's arguments, parsed from the model's JSON
   * @throws ToolException when the arguments are wrong or the tool cannot do what was asked; the
   *     message goes back to the model, so it should say how to do better
   */
  ToolResult run(Map<String, Object> arguments);
}
