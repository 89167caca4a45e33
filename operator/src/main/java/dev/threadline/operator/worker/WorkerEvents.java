package dev.threadline.operator.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.models.Usage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The events of one run in the shapes the api-server streams, numbered from the run's recorded
 * memory, so that a worker that repeats a step after a failover gives its events the same numbers
 * (and the Run records each number once).
 */
final class WorkerEvents {
  private final Consumer<RunnerEvent> sink;
  private final Clock clock;
  private long seq;
  private String itemSuffix;

  WorkerEvents(Consumer<RunnerEvent> sink, Clock clock, long lastSeq) {
    this.sink = sink;
    this.clock = clock;
    this.seq = lastSeq;
  }

  /**
   * Names the items of model text and tool calls from now on (in the events' {@code itemId}) with
   * the ids their deltas carry: {@code <prefix>_<suffix>-r<seq of the event>}.
   */
  WorkerEvents namingItems(String suffix) {
    this.itemSuffix = suffix;
    return this;
  }

  /**
   * The id of the item the next event will carry: a model turn's text ({@code msg}, whether it ends
   * as the message or as reasoning) or a tool call ({@code tool}).
   */
  String nextItemId(String prefix) {
    return prefix + "_" + itemSuffix + "-r" + (seq + 1);
  }

  long lastSeq() {
    return seq;
  }

  void started(String runId, String model, String workspace) {
    emit(RunnerEventType.STARTED, RunnerEventData.started(runId, model, workspace));
  }

  void setup(String text) {
    emit(RunnerEventType.SETUP, RunnerEventData.setup(text));
  }

  void planning(String text) {
    emit(RunnerEventType.PLANNING, RunnerEventData.planning(text));
  }

  void reasoning(String text) {
    emit(RunnerEventType.REASONING, named("msg", RunnerEventData.reasoning(text)));
  }

  void message(String text) {
    emit(RunnerEventType.MESSAGE, named("msg", RunnerEventData.message(text)));
  }

  void error(String text) {
    emit(RunnerEventType.ERROR, RunnerEventData.error(text));
  }

  void approvalRequested(
      String callId, String kind, String tool, JsonNode arguments, String reason, String question) {
    emit(
        RunnerEventType.APPROVAL_REQUESTED,
        RunnerEventData.approvalRequested(callId, kind, tool, arguments, reason, question));
  }

  void usage(Usage total) {
    emit(RunnerEventType.USAGE, usageData(total));
  }

  void toolCall(String id, SandboxToolResult result, String toolName, long durationMs) {
    ObjectNode tool =
        RunnerEventData.tool(
            result.type(),
            toolName,
            result.command(),
            result.path(),
            result.output(),
            result.exitCode());
    String status =
        result.succeeded()
            ? RunnerEventData.TOOL_STATUS_COMPLETED
            : RunnerEventData.TOOL_STATUS_FAILED;
    emit(
        RunnerEventType.TOOL_CALL,
        named("tool", RunnerEventData.toolCall(id, status, tool, durationMs)));
  }

  /**
   * The workspace's changes ({@code GET /workspace/diff}): one {@code file_change} event each;
   * returns the result's diffs (create and modify: the contract's diffs know no delete).
   */
  List<ObjectNode> fileChanges(JsonNode workspaceDiff) {
    for (JsonNode diff : workspaceDiff.path("diffs")) {
      emit(
          RunnerEventType.FILE_CHANGE,
          RunnerEventData.fileChange(
              diff.path("path").asText(),
              diff.path("change").asText(RunnerEventData.CHANGE_MODIFY),
              diff.path("additions").asLong(0),
              diff.path("deletions").asLong(0)));
    }
    return diffEntries(workspaceDiff);
  }

  /**
   * The runner's workspace diff as the thread's diff entries: created and modified files (a deleted
   * one has none).
   */
  static List<ObjectNode> diffEntries(JsonNode workspaceDiff) {
    List<ObjectNode> diffs = new ArrayList<>();
    for (JsonNode diff : workspaceDiff.path("diffs")) {
      String path = diff.path("path").asText();
      String change = diff.path("change").asText(RunnerEventData.CHANGE_MODIFY);
      if (change.equals(RunnerEventData.CHANGE_CREATE)) {
        diffs.add(RunnerEventData.diffCreate(path, diff.path("content").asText("")));
      } else if (!change.equals(RunnerEventData.CHANGE_DELETE)) {
        diffs.add(
            RunnerEventData.diffModify(
                path, diff.path("additions").asLong(0), diff.path("deletions").asLong(0)));
      }
    }
    return diffs;
  }

  /** The run's last event when it succeeded; it is not sent to the sink but returned. */
  RunnerEvent result(
      String response, List<String> actions, Usage usage, List<ObjectNode> diffs, long durationMs) {
    return new RunnerEvent(
        ++seq,
        clock.instant(),
        RunnerEventType.RESULT,
        RunnerEventData.result(response, actions, usageData(usage), diffs, durationMs));
  }

  private ObjectNode named(String prefix, ObjectNode data) {
    return itemSuffix == null ? data : data.put(DeltaWire.ITEM_ID, nextItemId(prefix));
  }

  private void emit(RunnerEventType type, ObjectNode data) {
    sink.accept(new RunnerEvent(++seq, clock.instant(), type, data));
  }

  static ObjectNode usageData(Usage usage) {
    return RunnerEventData.usage(usage.inputTokens(), usage.outputTokens(), usage.cachedTokens());
  }
}
