package dev.threadline.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Builds the {@code data} of each event type, so the worker (and the runner, for diffs) writes and
 * the api-server reads the same field names. Fields that may be absent are left out rather than
 * written as null.
 */
public final class RunnerEventData {

  public static final String TOOL_STATUS_COMPLETED = "completed";
  public static final String TOOL_STATUS_FAILED = "failed";
  public static final String CHANGE_CREATE = "create";
  public static final String CHANGE_MODIFY = "modify";
  public static final String CHANGE_DELETE = "delete";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RunnerEventData() {}

  public static ObjectNode started(String runId, String model, String workspace) {
    return NODES.objectNode().put("run_id", runId).put("model", model).put("workspace", workspace);
  }

  public static ObjectNode planning(String text) {
    return text(text);
  }

  public static ObjectNode reasoning(String text) {
    return text(text);
  }

  public static ObjectNode setup(String text) {
    return text(text);
  }

  /** An assistant message. */
  public static ObjectNode message(String text) {
    return NODES.objectNode().put("role", "assistant").put("text", text);
  }

  /**
   * A call waits for a person: {@code arguments} as the model wrote them (an object, or the text
   * when it is not one); {@code reason} why an approval is asked, {@code question} what a question
   * asks.
   */
  public static ObjectNode approvalRequested(
      String callId, String kind, String tool, JsonNode arguments, String reason, String question) {
    ObjectNode data = NODES.objectNode().put("callId", callId).put("kind", kind).put("tool", tool);
    data.set("arguments", arguments);
    if (reason != null) {
      data.put("reason", reason);
    }
    if (question != null) {
      data.put("question", question);
    }
    return data;
  }

  public static ObjectNode error(String message) {
    return NODES.objectNode().put("message", message);
  }

  /**
   * The {@code tool} object of a tool call.
   *
   * @param type {@code command_execution}, {@code file_read}, {@code file_write}, {@code
   *     file_edit}, {@code file_list} or {@code mcp_tool}
   * @param command the shell command, or null for other tools
   * @param path the workspace path the tool worked on, or null
   * @param exitCode the command's exit code, or null for other tools
   */
  public static ObjectNode tool(
      String type, String name, String command, String path, String output, Integer exitCode) {
    ObjectNode tool = NODES.objectNode().put("type", type).put("name", name);
    if (command != null) {
      tool.put("command", command);
    }
    if (path != null) {
      tool.put("path", path);
    }
    tool.put("output", output == null ? "" : output);
    if (exitCode != null) {
      tool.put("exit_code", exitCode);
    }
    return tool;
  }

  /** A tool call: {@code id} is {@code tool_<n>}, {@code status} completed or failed. */
  public static ObjectNode toolCall(String id, String status, ObjectNode tool, long durationMs) {
    ObjectNode data = NODES.objectNode().put("id", id).put("status", status);
    data.set("tool", tool);
    return data.put("duration_ms", durationMs);
  }

  /** {@code change} is {@link #CHANGE_CREATE}, {@link #CHANGE_MODIFY} or {@link #CHANGE_DELETE}. */
  public static ObjectNode fileChange(String path, String change, long additions, long deletions) {
    return NODES
        .objectNode()
        .put("path", path)
        .put("change", change)
        .put("additions", additions)
        .put("deletions", deletions);
  }

  public static ObjectNode usage(long inputTokens, long outputTokens, long cachedTokens) {
    return NODES
        .objectNode()
        .put("input_tokens", inputTokens)
        .put("output_tokens", outputTokens)
        .put("cached_tokens", cachedTokens);
  }

  /** A diff entry of a created file, as the contract's thread diff entry. */
  public static ObjectNode diffCreate(String path, String content) {
    return NODES.objectNode().put("path", path).put("type", CHANGE_CREATE).put("content", content);
  }

  /** A diff entry of a modified file, as the contract's thread diff entry. */
  public static ObjectNode diffModify(String path, long additions, long deletions) {
    return NODES
        .objectNode()
        .put("path", path)
        .put("type", CHANGE_MODIFY)
        .put("additions", additions)
        .put("deletions", deletions);
  }

  /**
   * The last event of a successful run.
   *
   * @param usage from {@link #usage(long, long, long)}
   * @param diffs entries from {@link #diffCreate} and {@link #diffModify}
   */
  public static ObjectNode result(
      String response,
      List<String> actions,
      ObjectNode usage,
      List<ObjectNode> diffs,
      long durationMs) {
    ObjectNode data = NODES.objectNode().put("response", response);
    ArrayNode actionArray = data.putArray("actions");
    actions.forEach(actionArray::add);
    data.set("usage", usage);
    ArrayNode diffArray = data.putArray("diffs");
    diffs.forEach(diffArray::add);
    return data.put("duration_ms", durationMs);
  }

  public static ObjectNode failed(RunnerFailureCode code, String message) {
    return NODES.objectNode().put("code", code.code()).put("message", message);
  }

  private static ObjectNode text(String text) {
    return NODES.objectNode().put("text", text);
  }
}
