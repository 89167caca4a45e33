package dev.threadline.models.scripted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What running one command produced, read back from a tool result. The runner sends JSON such as
 * {@code {"exit_code":0,"output":"..."}}; plain text is accepted too (then the exit code is
 * unknown).
 *
 * @param exitCode the command's exit code, or null when the tool result does not say
 * @param output what it printed
 */
public record CommandResult(Integer exitCode, String output) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public CommandResult {
    output = output == null ? "" : output;
  }

  public static CommandResult parse(String toolResult) {
    String content = toolResult == null ? "" : toolResult.strip();
    if (content.startsWith("{")) {
      try {
        JsonNode node = JSON.readTree(content);
        if (node != null && node.isObject()) {
          return fromJson(node);
        }
      } catch (java.io.IOException notJson) {
        // Fall through: text that merely starts with a brace is still output.
      }
    }
    return new CommandResult(null, toolResult == null ? "" : toolResult);
  }

  private static CommandResult fromJson(JsonNode node) {
    JsonNode code = first(node, "exit_code", "exitCode");
    Integer exitCode = code != null && code.canConvertToInt() ? code.asInt() : null;
    JsonNode output = first(node, "output", "stdout");
    String text = output == null || output.isNull() ? "" : output.asText();
    JsonNode stderr = node.get("stderr");
    if (stderr != null && !stderr.asText().isEmpty()) {
      text = text.isEmpty() ? stderr.asText() : text + "\n" + stderr.asText();
    }
    return new CommandResult(exitCode, text);
  }

  private static JsonNode first(JsonNode node, String... names) {
    for (String name : names) {
      if (node.hasNonNull(name)) {
        return node.get(name);
      }
    }
    return null;
  }

  public boolean succeeded() {
    return exitCode != null && exitCode == 0;
  }

  /** The last {@code maxLines} lines of output, at most {@code maxChars} characters. */
  public String tail(int maxLines, int maxChars) {
    String trimmed = output.strip();
    if (trimmed.isEmpty()) {
      return "";
    }
    String[] lines = trimmed.split("\\R");
    int from = Math.max(0, lines.length - maxLines);
    String tail = String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
    if (tail.length() > maxChars) {
      tail = "…" + tail.substring(tail.length() - maxChars);
    } else if (from > 0) {
      tail = "…\n" + tail;
    }
    return tail;
  }
}
