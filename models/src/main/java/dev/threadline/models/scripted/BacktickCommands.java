package dev.threadline.models.scripted;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds the shell commands a task writes in backticks, in the order they appear: inline {@code
 * `cmd`} spans, and fenced {@code ```} blocks (one command each, run as a script; a leading shell
 * language tag such as {@code bash} is dropped).
 */
public final class BacktickCommands {

  private static final String FENCE = "```";

  /** Tags that name the shell rather than being part of the command. */
  private static final Set<String> SHELL_TAGS =
      Set.of("bash", "sh", "shell", "zsh", "console", "terminal", "shell-session", "shellsession");

  private BacktickCommands() {}

  public static List<String> extract(String text) {
    List<String> commands = new ArrayList<>();
    if (text == null) {
      return commands;
    }
    int pos = 0;
    while (pos < text.length()) {
      if (text.startsWith(FENCE, pos)) {
        int end = text.indexOf(FENCE, pos + FENCE.length());
        if (end < 0) {
          break; // an unclosed fence: the task is malformed, run nothing from here on
        }
        addIfPresent(commands, withoutShellTag(text.substring(pos + FENCE.length(), end)));
        pos = end + FENCE.length();
      } else if (text.charAt(pos) == '`') {
        int end = text.indexOf('`', pos + 1);
        if (end < 0) {
          break;
        }
        String span = text.substring(pos + 1, end);
        // An inline span never crosses a line: a stray backtick must not swallow the next
        // paragraph.
        if (span.indexOf('\n') >= 0) {
          pos++;
          continue;
        }
        addIfPresent(commands, span);
        pos = end + 1;
      } else {
        pos++;
      }
    }
    return commands;
  }

  private static String withoutShellTag(String block) {
    int newline = block.indexOf('\n');
    if (newline >= 0 && SHELL_TAGS.contains(block.substring(0, newline).strip().toLowerCase())) {
      return block.substring(newline + 1);
    }
    return block;
  }

  private static void addIfPresent(List<String> commands, String command) {
    String stripped = command.strip();
    if (!stripped.isEmpty()) {
      commands.add(stripped);
    }
  }
}
