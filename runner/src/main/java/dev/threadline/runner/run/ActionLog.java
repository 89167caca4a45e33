package dev.threadline.runner.run;

import dev.threadline.runner.tools.ToolResult;
import java.util.ArrayList;
import java.util.List;

/**
 * One line per tool call, for the result's {@code actions}: "ran `ls -la` (exit 0)", "wrote
 * notes.txt".
 */
public final class ActionLog {

  private static final int MAX_COMMAND_CHARS = 200;

  private final List<String> lines = new ArrayList<>();

  public synchronized void record(String toolName, ToolResult result) {
    lines.add(describe(toolName, result));
  }

  public synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  static String describe(String toolName, ToolResult result) {
    if (result.type().equals("command_execution")) {
      return result.exitCode() != null
          ? "ran `" + shorten(result.command()) + "` (exit " + result.exitCode() + ")"
          : "could not run `" + shorten(result.command()) + "`: " + reason(result);
    }
    String path = result.path() == null ? "" : " " + result.path();
    String[] verb =
        switch (result.type()) {
          case "file_read" -> new String[] {"read", "read"};
          case "file_write" -> new String[] {"wrote", "write"};
          case "file_edit" -> new String[] {"edited", "edit"};
          case "file_list" -> new String[] {"listed", "list"};
          default -> new String[] {"called", "call"};
        };
    String object = result.type().startsWith("file_") ? path : " " + toolName;
    return result.succeeded()
        ? verb[0] + object
        : "could not " + verb[1] + object + ": " + reason(result);
  }

  private static String reason(ToolResult result) {
    return shorten(
        result.output().startsWith("error: ") ? result.output().substring(7) : result.output());
  }

  private static String shorten(String text) {
    String oneLine = text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    return oneLine.length() <= MAX_COMMAND_CHARS
        ? oneLine
        : oneLine.substring(0, MAX_COMMAND_CHARS - 1) + "…";
  }
}
