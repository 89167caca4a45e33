package dev.threadline.operator.worker;

/**
 * One line per tool call, for the result's {@code actions}: "ran `ls -la` (exit 0)", "wrote
 * notes.txt".
 */
final class Actions {
  private static final int MAX_CHARS = 200;

  private Actions() {}

  static String describe(String toolName, SandboxToolResult result) {
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

  private static String reason(SandboxToolResult result) {
    return shorten(
        result.output().startsWith("error: ") ? result.output().substring(7) : result.output());
  }

  private static String shorten(String text) {
    String oneLine = text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    return oneLine.length() <= MAX_CHARS ? oneLine : oneLine.substring(0, MAX_CHARS - 1) + "…";
  }
}
