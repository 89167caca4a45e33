package dev.threadline.runner.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.events.RunnerEventWriter;
import dev.threadline.core.events.RunnerFailureCode;
import dev.threadline.models.Usage;
import dev.threadline.runner.tools.ToolResult;
import dev.threadline.runner.workspace.FileDiff;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The events of one run, in the runner's words; numbers the tool calls {@code tool_1}, {@code
 * tool_2}...
 */
public final class RunEvents {

  private final RunnerEventWriter writer;
  private final AtomicInteger toolCalls = new AtomicInteger();

  public RunEvents(RunnerEventWriter writer) {
    this.writer = writer;
  }

  public void started(String runId, String model, String workspace) {
    writer.emit(RunnerEventType.STARTED, RunnerEventData.started(runId, model, workspace));
  }

  public void setup(String text) {
    writer.emit(RunnerEventType.SETUP, RunnerEventData.setup(text));
  }

  public void planning(String text) {
    writer.emit(RunnerEventType.PLANNING, RunnerEventData.planning(text));
  }

  public void reasoning(String text) {
    writer.emit(RunnerEventType.REASONING, RunnerEventData.reasoning(text));
  }

  public void message(String text) {
    writer.emit(RunnerEventType.MESSAGE, RunnerEventData.message(text));
  }

  public void error(String message) {
    writer.emit(RunnerEventType.ERROR, RunnerEventData.error(message));
  }

  public void usage(Usage total) {
    writer.emit(RunnerEventType.USAGE, usageData(total));
  }

  /** A finished tool call, as the contract's tool_call item. */
  public void toolCall(String toolName, ToolResult result, long durationMs) {
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
    writer.emit(
        RunnerEventType.TOOL_CALL,
        RunnerEventData.toolCall("tool_" + toolCalls.incrementAndGet(), status, tool, durationMs));
  }

  public void fileChange(FileDiff diff) {
    writer.emit(
        RunnerEventType.FILE_CHANGE,
        RunnerEventData.fileChange(diff.path(), diff.change(), diff.additions(), diff.deletions()));
  }

  /**
   * The last line of a run that succeeded; deleted files are in file_change events only, as the
   * contract's diffs know create and modify.
   */
  public void result(
      String response, List<String> actions, Usage usage, List<FileDiff> diffs, long durationMs) {
    List<ObjectNode> entries =
        diffs.stream()
            .filter(diff -> !diff.change().equals(RunnerEventData.CHANGE_DELETE))
            .map(diff ->
                diff.change().equals(RunnerEventData.CHANGE_CREATE)
                    ? RunnerEventData.diffCreate(diff.path(), diff.content())
                    : RunnerEventData.diffModify(diff.path(), diff.additions(), diff.deletions()))
            .toList();
    writer.emit(
        RunnerEventType.RESULT,
        RunnerEventData.result(response, actions, usageData(usage), entries, durationMs));
  }

  /** The last line of a run that failed. Later events, and a second failure, are dropped. */
  public void failed(RunnerFailureCode code, String message) {
    writer.emit(RunnerEventType.FAILED, RunnerEventData.failed(code, message));
  }

  /** Whether the run's last line has been written. */
  public boolean finished() {
    return writer.finished();
  }

  private static ObjectNode usageData(Usage usage) {
    return RunnerEventData.usage(usage.inputTokens(), usage.outputTokens(), usage.cachedTokens());
  }
}
