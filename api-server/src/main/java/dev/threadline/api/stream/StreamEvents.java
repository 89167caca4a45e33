package dev.threadline.api.stream;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The contract's stream events, one factory method per type, so every payload shape is written in
 * one place. Field names are the contract's, snake_case inside {@code response} objects.
 */
public final class StreamEvents {
  public static final String THREAD_CREATED = "thread.created";
  public static final String DIRECT_RESPONSE = "direct.response";
  public static final String COMPUTER_STARTING = "computer.starting";
  public static final String RESPONSE_STARTED = "response.started";
  public static final String ITEM_COMPLETED = "response.item.completed";
  public static final String RESPONSE_CREATED = "response.created";
  public static final String OUTPUT_ITEM_ADDED = "response.output_item.added";
  public static final String RESPONSE_COMPLETED = "response.completed";
  public static final String RESPONSE_FAILED = "response.failed";
  public static final String STREAM_COMPLETED = "stream.completed";
  public static final String STREAM_ERROR = "stream.error";

  /** Beyond the contract, only in runs whose agent has an approval policy. */
  public static final String APPROVAL_REQUESTED = "response.approval_requested";

  private static final tools.jackson.databind.ObjectMapper JSON =
      tools.jackson.databind.json.JsonMapper.builder().build();

  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private StreamEvents() {}

  /**
   * First event of a stream that created its thread: {@code thread: {id, status, environmentId}}.
   */
  public static StreamEvent threadCreated(String threadId, String status, String environmentId) {
    ObjectNode json = start(THREAD_CREATED);
    json.putObject("thread")
        .put("id", threadId)
        .put("status", status)
        .put("environmentId", environmentId);
    return new StreamEvent(THREAD_CREATED, json);
  }

  public static StreamEvent directResponse(String message, String threadId, String userId) {
    ObjectNode json =
        start(DIRECT_RESPONSE)
            .put("message", message)
            .put("threadId", threadId)
            .put("userId", userId);
    return new StreamEvent(DIRECT_RESPONSE, json);
  }

  public static StreamEvent computerStarting(String threadId, String userId) {
    return new StreamEvent(
        COMPUTER_STARTING,
        start(COMPUTER_STARTING).put("threadId", threadId).put("userId", userId));
  }

  /** Container execution begins; {@code createdAt} in Unix seconds. */
  public static StreamEvent responseStarted(
      String runId,
      String threadId,
      String userId,
      String workspaceId,
      String model,
      long createdAt) {
    ObjectNode json = start(RESPONSE_STARTED);
    json.putObject("response")
        .put("id", runId)
        .put("thread_id", threadId)
        .put("user_id", userId)
        .put("workspace_id", workspaceId)
        .put("model", model)
        .put("execution_mode", "containerized")
        .put("created_at", createdAt)
        .put("status", "in_progress");
    return new StreamEvent(RESPONSE_STARTED, json);
  }

  /** A response record exists (the general stream form of follow-up messages); Unix seconds. */
  public static StreamEvent responseCreated(
      String runId, String threadId, String model, long createdAt) {
    ObjectNode json = start(RESPONSE_CREATED);
    json.putObject("response")
        .put("id", runId)
        .put("object", "response")
        .put("thread_id", threadId)
        .put("model", model)
        .put("created_at", createdAt)
        .put("status", "in_progress");
    return new StreamEvent(RESPONSE_CREATED, json);
  }

  /** An output item starts; its content follows in {@code response.item.completed}. */
  public static StreamEvent outputItemAdded(ObjectNode item) {
    ObjectNode json = start(OUTPUT_ITEM_ADDED);
    json.set("item", item);
    return new StreamEvent(OUTPUT_ITEM_ADDED, json);
  }

  public static StreamEvent itemCompleted(ObjectNode item) {
    ObjectNode json = start(ITEM_COMPLETED);
    json.set("item", item);
    return new StreamEvent(ITEM_COMPLETED, json);
  }

  /** The full response is complete; {@code completedAt} in Unix seconds. */
  public static StreamEvent responseCompleted(
      String runId,
      String threadId,
      long durationMs,
      long inputTokens,
      long outputTokens,
      long cachedTokens,
      long completedAt) {
    ObjectNode json = start(RESPONSE_COMPLETED);
    ObjectNode response =
        json.putObject("response")
            .put("id", runId)
            .put("thread_id", threadId)
            .put("status", "completed")
            .put("duration_ms", durationMs);
    response
        .putObject("usage")
        .put("input_tokens", inputTokens)
        .put("output_tokens", outputTokens)
        .put("cached_tokens", cachedTokens)
        .put("total_tokens", inputTokens + outputTokens);
    response.put("completed_at", completedAt);
    return new StreamEvent(RESPONSE_COMPLETED, json);
  }

  /** The response failed; {@code failedAt} in Unix seconds. */
  public static StreamEvent responseFailed(
      String runId, String threadId, String code, String message, long durationMs, long failedAt) {
    ObjectNode json = start(RESPONSE_FAILED);
    ObjectNode response =
        json.putObject("response")
            .put("id", runId)
            .put("thread_id", threadId)
            .put("status", "failed");
    response.putObject("error").put("message", message).put("code", code);
    response.put("duration_ms", durationMs).put("failed_at", failedAt);
    return new StreamEvent(RESPONSE_FAILED, json);
  }

  /** The last event of a stream that ended normally: only {@code type}. */
  public static StreamEvent streamCompleted() {
    return new StreamEvent(STREAM_COMPLETED, start(STREAM_COMPLETED));
  }

  /** The last event of a stream that broke off; the run itself may go on. */
  public static StreamEvent streamError(String message) {
    ObjectNode json = start(STREAM_ERROR);
    json.putObject("error").put("message", message).put("code", "stream_error");
    return new StreamEvent(STREAM_ERROR, json);
  }

  /**
   * The run waits for a person: {@code approval: {callId, kind, tool, arguments, reason?,
   * question?}}, answered by {@code POST /v1/threads/:id/approvals}; {@code argumentsJson} is the
   * arguments as the model gave them, as JSON text.
   */
  public static StreamEvent approvalRequested(
      String runId,
      String threadId,
      String callId,
      String kind,
      String tool,
      String argumentsJson,
      String reason,
      String question) {
    ObjectNode json = start(APPROVAL_REQUESTED).put("threadId", threadId).put("runId", runId);
    ObjectNode approval =
        json.putObject("approval").put("callId", callId).put("kind", kind).put("tool", tool);
    approval.set("arguments", JSON.readTree(argumentsJson));
    if (reason != null) {
      approval.put("reason", reason);
    }
    if (question != null) {
      approval.put("question", question);
    }
    return new StreamEvent(APPROVAL_REQUESTED, json);
  }

  private static ObjectNode start(String type) {
    return NODES.objectNode().put("type", type);
  }
}
