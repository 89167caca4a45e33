package dev.threadline.api.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.stream.StreamEvent;
import dev.threadline.api.stream.StreamEvents;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.run.RunWait;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Runs as A2A tasks and a task's stream events, from run phases and contract events. */
class TaskUpdatesTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void theRunsPhaseIsTheTasksState() {
    assertThat(TaskViews.task(run(null), "hi", null, null).getStatus().state())
        .isEqualTo(TaskState.SUBMITTED);
    assertThat(TaskViews.task(run("running"), "hi", null, null).getStatus().state())
        .isEqualTo(TaskState.WORKING);
    assertThat(TaskViews.task(run("completed"), "hi", "hello", null).getStatus().state())
        .isEqualTo(TaskState.COMPLETED);
    assertThat(TaskViews.task(run("failed"), "hi", null, null).getStatus().state())
        .isEqualTo(TaskState.FAILED);
    assertThat(TaskViews.task(run("cancelled"), "hi", null, null).getStatus().state())
        .isEqualTo(TaskState.CANCELED);
  }

  @Test
  void aTaskIsTheRunInItsThreadWithTheMessageTheAnswerAndWhyItFailed() {
    Task done = TaskViews.task(run("completed"), "hi", "hello", null);

    assertThat(done.getId()).isEqualTo("run_abc-1");
    assertThat(done.getContextId()).isEqualTo("thread_abc");
    assertThat(done.getHistory())
        .extracting(m -> m.getMessageId())
        .containsExactly("msg_abc-1_u", "msg_abc-1_a");
    assertThat(text(done.getArtifacts().getFirst().parts().getFirst())).isEqualTo("hello");
    assertThat(TaskViews.task(run("completed"), "hi", "hello", 1).getHistory())
        .extracting(m -> m.getMessageId())
        .containsExactly("msg_abc-1_a");

    Run failed = run("failed");
    RunError error = new RunError();
    error.setMessage("Model unavailable");
    failed.getStatus().setError(error);
    Task failure = TaskViews.task(failed, "hi", null, null);
    assertThat(failure.getArtifacts()).isEmpty();
    assertThat(text(failure.getStatus().message().getParts().getFirst()))
        .isEqualTo("Model unavailable");
  }

  @Test
  void aStreamSaysWorkingOnceAndTellsEachCommandThenTheAnswerAndTheFinalStatus() {
    TaskUpdates updates = new TaskUpdates(TaskState.SUBMITTED, run -> "Done: notes written");

    List<StreamingEventKind> started = updates.on(run("running"), List.of(), false);
    assertThat(started)
        .singleElement()
        .satisfies(event -> assertStatus(event, TaskState.WORKING, false));
    assertThat(updates.on(run("running"), List.of(), false)).isEmpty();

    List<StreamingEventKind> command =
        updates.on(run("running"), List.of(toolCall("echo hi > notes", "", 0)), false);
    assertThat(command)
        .singleElement()
        .satisfies(event -> {
          assertStatus(event, TaskState.WORKING, false);
          assertThat(
                  text(((TaskStatusUpdateEvent) event).getStatus().message().getParts().getFirst()))
              .isEqualTo("$ echo hi > notes\n(exit code 0)");
        });

    List<StreamingEventKind> end = updates.on(run("completed"), List.of(), true);
    assertThat(end).hasSize(2);
    TaskArtifactUpdateEvent artifact = (TaskArtifactUpdateEvent) end.get(0);
    assertThat(text(artifact.getArtifact().parts().getFirst())).isEqualTo("Done: notes written");
    assertThat(artifact.isLastChunk()).isTrue();
    assertStatus(end.get(1), TaskState.COMPLETED, true);
  }

  @Test
  void aFailedRunEndsWithoutAnArtifactAndALongOutputIsCut() {
    TaskUpdates updates = new TaskUpdates(TaskState.WORKING, run -> null);
    String output = "x".repeat(TaskUpdates.OUTPUT_LIMIT + 50);

    List<StreamingEventKind> events =
        updates.on(run("failed"), List.of(toolCall("make", output, 2)), true);

    assertThat(events).hasSize(2);
    String said =
        text(((TaskStatusUpdateEvent) events.get(0)).getStatus().message().getParts().getFirst());
    assertThat(said).startsWith("$ make\nxxx").contains("… (truncated)").endsWith("(exit code 2)");
    assertThat(said.length()).isLessThan(TaskUpdates.OUTPUT_LIMIT + 100);
    assertStatus(events.get(1), TaskState.FAILED, true);
  }

  @Test
  void aRunWaitingForAPersonIsInputRequiredUntilItIsAnswered() {
    Run waiting = run("running");
    waiting
        .getStatus()
        .setWaitingFor(new RunWait("call_abc-1_2", RunWait.APPROVAL, "run_command", "now"));
    Task task = TaskViews.task(waiting, "hi", null, null);
    assertThat(task.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
    assertThat(text(task.getStatus().message().getParts().getFirst()))
        .contains(
            "approval to call run_command", "/v1/threads/thread_abc/approvals", "call_abc-1_2");

    TaskUpdates updates = new TaskUpdates(TaskState.WORKING, run -> null);
    ObjectNode json = JSON.createObjectNode().put("type", StreamEvents.APPROVAL_REQUESTED);
    json.putObject("approval")
        .put("callId", "call_abc-1_3")
        .put("kind", RunWait.QUESTION)
        .put("tool", "ask_user")
        .put("question", "Which branch?");
    List<StreamingEventKind> asked =
        updates.on(waiting, List.of(new StreamEvent(StreamEvents.APPROVAL_REQUESTED, json)), false);
    assertThat(asked)
        .singleElement()
        .satisfies(event -> {
          assertStatus(event, TaskState.INPUT_REQUIRED, false);
          assertThat(
                  text(((TaskStatusUpdateEvent) event).getStatus().message().getParts().getFirst()))
              .contains("The agent asks: Which branch?", "\"answer\"");
        });
    // Still waiting: nothing new; answered (no longer waiting): working again.
    assertThat(updates.on(waiting, List.of(), false)).isEmpty();
    assertThat(updates.on(run("running"), List.of(), false))
        .singleElement()
        .satisfies(event -> assertStatus(event, TaskState.WORKING, false));
  }

  private static void assertStatus(StreamingEventKind event, TaskState state, boolean isFinal) {
    assertThat(event).isInstanceOf(TaskStatusUpdateEvent.class);
    TaskStatusUpdateEvent status = (TaskStatusUpdateEvent) event;
    assertThat(status.getStatus().state()).isEqualTo(state);
    assertThat(status.isFinal()).isEqualTo(isFinal);
    assertThat(status.getTaskId()).isEqualTo("run_abc-1");
    assertThat(status.getContextId()).isEqualTo("thread_abc");
  }

  private static String text(Object part) {
    return ((TextPart) part).getText();
  }

  private static StreamEvent toolCall(String command, String output, int exitCode) {
    ObjectNode json = JSON.createObjectNode().put("type", "response.item.completed");
    ObjectNode item = json.putObject("item").put("type", "tool_call").put("id", "tool_1");
    item.putObject("tool")
        .put("type", "command_execution")
        .put("command", command)
        .put("output", output)
        .put("exit_code", exitCode);
    return new StreamEvent("response.item.completed", json);
  }

  private static Run run(String phase) {
    Run run = new Run();
    run.setMetadata(new ObjectMetaBuilder().withName("run-abc-1").withNamespace("ns").build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc");
    spec.setSequence(1L);
    spec.setMessage("hi");
    run.setSpec(spec);
    if (phase != null) {
      RunStatus status = new RunStatus();
      status.setPhase(phase);
      run.setStatus(status);
    }
    return run;
  }
}
