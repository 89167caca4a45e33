package dev.threadline.api.stream;

import tools.jackson.databind.node.ObjectNode;

/**
 * The items of {@code response.item.completed}. The contract fixes planning, message, tool_call and
 * reasoning; file_change, setup and error are "not shown", so they follow the same pattern: an
 * {@code id} with a type prefix, a {@code status}, and the runner's fields.
 */
final class ResponseItems {
  static final String COMPLETED = "completed";

  private ResponseItems() {}

  static ObjectNode planning(String id, String text) {
    ObjectNode item = item("planning", id).put("role", "assistant").put("status", COMPLETED);
    item.putObject("content").put("text", text);
    return item;
  }

  static ObjectNode reasoning(String id, String text) {
    ObjectNode item = item("reasoning", id).put("status", COMPLETED);
    item.putObject("content").put("text", text);
    return item;
  }

  /** A message item that has started and has no content yet. */
  static ObjectNode messageStarted(String id, String role) {
    ObjectNode item = item("message", id).put("role", role).put("status", "in_progress");
    item.putArray("content");
    return item;
  }

  static ObjectNode message(String id, String role, String text) {
    ObjectNode item = item("message", id).put("role", role).put("status", COMPLETED);
    item.putArray("content").addObject().put("type", "text").put("text", text);
    return item;
  }

  /**
   * A tool call; {@code command}, {@code path} and {@code exitCode} are left out when null (only
   * commands have them).
   */
  static ObjectNode toolCall(
      String id,
      String status,
      String toolType,
      String name,
      String command,
      String path,
      String output,
      Long exitCode,
      long durationMs) {
    ObjectNode item = item("tool_call", id).put("status", status);
    ObjectNode tool = item.putObject("tool").put("type", toolType);
    if (name != null) {
      tool.put("name", name);
    }
    if (command != null) {
      tool.put("command", command);
    }
    if (path != null) {
      tool.put("path", path);
    }
    tool.put("output", output);
    if (exitCode != null) {
      tool.put("exit_code", exitCode);
    }
    item.putObject("metadata").put("duration_ms", durationMs);
    return item;
  }

  /** {@code change} is create, modify or delete. */
  static ObjectNode fileChange(
      String id, String path, String change, long additions, long deletions) {
    return item("file_change", id)
        .put("status", COMPLETED)
        .put("path", path)
        .put("change", change)
        .put("additions", additions)
        .put("deletions", deletions);
  }

  static ObjectNode setup(String id, String text) {
    ObjectNode item = item("setup", id).put("status", COMPLETED);
    item.putObject("content").put("text", text);
    return item;
  }

  /** Something went wrong but the run went on; shaped like the stream's own {@code error}. */
  static ObjectNode error(String id, String message) {
    ObjectNode item = item("error", id).put("status", COMPLETED);
    item.putObject("error").put("message", message);
    return item;
  }

  private static ObjectNode item(String type, String id) {
    return StreamEvents.NODES.objectNode().put("type", type).put("id", id);
  }
}
