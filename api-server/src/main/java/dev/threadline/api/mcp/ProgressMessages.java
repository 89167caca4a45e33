package dev.threadline.api.mcp;

import dev.threadline.api.stream.StreamEvent;
import tools.jackson.databind.JsonNode;

/**
 * The one line a progress notification says about a run's stream event: its type, and for an item
 * its kind and (a command) what ran and how it ended. Bounded: a command can be long.
 */
final class ProgressMessages {
  static final int MAX_CHARS = 200;

  private ProgressMessages() {}

  static String describe(StreamEvent event) {
    StringBuilder line = new StringBuilder(event.type());
    JsonNode item = event.json().path("item");
    if (item.isObject()) {
      line.append(' ').append(item.path("type").asString(""));
      JsonNode tool = item.path("tool");
      if (tool.isObject() && tool.hasNonNull("command")) {
        line.append(": ").append(tool.path("command").asString(""));
        if (tool.hasNonNull("exit_code")) {
          line.append(" (exit ").append(tool.path("exit_code").asString("")).append(')');
        }
      }
    }
    JsonNode error = event.json().path("error");
    if (error.hasNonNull("message")) {
      line.append(": ").append(error.path("message").asString(""));
    }
    return line.length() <= MAX_CHARS ? line.toString() : line.substring(0, MAX_CHARS - 1) + "…";
  }
}
