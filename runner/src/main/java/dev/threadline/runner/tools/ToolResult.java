package dev.threadline.runner.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one tool call did: the fields a {@code tool_call} event shows, and what the model reads
 * back.
 *
 * @param type the contract's tool type, e.g. {@code command_execution}
 * @param succeeded whether the call did what was asked (a command: exited 0)
 * @param command the shell command; null for other tools
 * @param path the workspace-relative path the tool worked on; null when none
 * @param output what the user sees: the command's output, the file read, or what was done
 * @param exitCode the command's exit code; null for other tools
 * @param forModel the tool result message the model reads
 */
public record ToolResult(
    String type,
    boolean succeeded,
    String command,
    String path,
    String output,
    Integer exitCode,
    String forModel) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public ToolResult {
    output = output == null ? "" : output;
    forModel = forModel == null ? output : forModel;
  }

  /** A command that ran: the model reads {@code {"exit_code":N,"output":"..."}}. */
  public static ToolResult command(String command, int exitCode, String output) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("exit_code", exitCode);
    result.put("output", output);
    try {
      return new ToolResult(
          "command_execution",
          exitCode == 0,
          command,
          null,
          output,
          exitCode,
          JSON.writeValueAsString(result));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of a number and a string always serialises", e);
    }
  }

  /** A tool other than a command that did what was asked. */
  public static ToolResult success(String type, String path, String output) {
    return new ToolResult(type, true, null, path, output, null, output);
  }

  /** A call that failed; the model reads the reason. */
  public static ToolResult failure(String type, String command, String path, String reason) {
    String text = "error: " + reason;
    return new ToolResult(type, false, command, path, text, null, text);
  }
}
