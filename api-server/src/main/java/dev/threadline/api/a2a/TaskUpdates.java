package dev.threadline.api.a2a;

import dev.threadline.api.stream.StreamEvent;
import dev.threadline.api.stream.StreamEvents;
import dev.threadline.api.threads.ThreadTasks;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The A2A events of one task's stream, from its run's contract events: a status update whenever the
 * state changes, one (working) for each command the run ran, one (input-required) for each call
 * that waits for a person, and at the end the answer as an artifact and the final status.
 */
final class TaskUpdates {
  /** A command's output in a status message is bounded: the run's log has it whole. */
  static final int OUTPUT_LIMIT = 2000;

  private final Function<Run, String> answers;
  private TaskState sent;
  private int commands;

  /**
   * @param sent the state the stream's first event (the task) showed
   * @param answers the whole answer of a finished run
   */
  TaskUpdates(TaskState sent, Function<Run, String> answers) {
    this.sent = sent;
    this.answers = answers;
  }

  /**
   * The events for a new version of the run and the contract events it brought; {@code finished}:
   * its terminal events were among them, so the task ends here.
   */
  List<StreamingEventKind> on(Run run, List<StreamEvent> events, boolean finished) {
    List<StreamingEventKind> out = new ArrayList<>();
    for (StreamEvent event : events) {
      if (StreamEvents.ITEM_COMPLETED.equals(event.type())
          && "tool_call".equals(event.json().path("item").path("type").asString(""))) {
        out.add(working(run, describe(event.json().path("item").path("tool"))));
      } else if (StreamEvents.APPROVAL_REQUESTED.equals(event.type())) {
        JsonNode approval = event.json().path("approval");
        out.add(
            status(
                run,
                TaskViews.inputRequired(
                    run,
                    approval.path("callId").asString(""),
                    approval.path("kind").asString(""),
                    approval.path("tool").asString(""),
                    approval.path("question").asString(null))));
      }
    }
    RunPhase phase = RunPhase.of(run);
    if (finished && phase.isTerminal()) {
      String answer = answers.apply(run);
      if (answer != null && !answer.isEmpty()) {
        out.add(
            new TaskArtifactUpdateEvent(
                ThreadTasks.runIdOf(run),
                TaskViews.answerArtifact(answer),
                ThreadTasks.threadIdOf(run),
                false,
                true,
                null));
      }
      sent = TaskViews.stateOf(phase);
      out.add(
          new TaskStatusUpdateEvent(
              ThreadTasks.runIdOf(run),
              TaskViews.status(run),
              ThreadTasks.threadIdOf(run),
              true,
              null));
      return out;
    }
    TaskState state = TaskViews.stateOf(phase);
    boolean stillWaiting =
        sent == TaskState.INPUT_REQUIRED
            && run.getStatus() != null
            && run.getStatus().getWaitingFor() != null;
    if (state != sent && !state.isFinal() && !stillWaiting) {
      out.add(status(run, new TaskStatus(state)));
    }
    return out;
  }

  /** A working status whose message tells what the run just did. */
  private TaskStatusUpdateEvent working(Run run, String text) {
    commands++;
    return status(
        run,
        new TaskStatus(
            TaskState.WORKING,
            TaskViews.agentMessage(
                run, ThreadTasks.answerMessageId(run) + "_step" + commands, text),
            null));
  }

  private TaskStatusUpdateEvent status(Run run, TaskStatus status) {
    sent = status.state();
    return new TaskStatusUpdateEvent(
        ThreadTasks.runIdOf(run), status, ThreadTasks.threadIdOf(run), false, null);
  }

  /** {@code $ command}, its (bounded) output and exit code; or the tool's type. */
  static String describe(JsonNode tool) {
    StringBuilder text = new StringBuilder();
    String command = tool.path("command").asString(null);
    text.append(command != null ? "$ " + command : tool.path("type").asString("tool call"));
    String output = tool.path("output").asString("");
    if (!output.isEmpty()) {
      text.append('\n')
          .append(
              output.length() <= OUTPUT_LIMIT
                  ? output
                  : output.substring(0, OUTPUT_LIMIT) + "\n… (truncated)");
    }
    if (tool.has("exit_code")) {
      text.append("\n(exit code ").append(tool.path("exit_code").asInt()).append(')');
    }
    return text.toString();
  }
}
