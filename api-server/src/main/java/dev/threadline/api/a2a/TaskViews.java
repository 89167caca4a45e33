package dev.threadline.api.a2a;

import dev.threadline.api.threads.ThreadTasks;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.run.RunWait;
import io.a2a.spec.Artifact;
import io.a2a.spec.Message;
import io.a2a.spec.Part;
import io.a2a.spec.Task;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TextPart;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run as an A2A task: the task id is the run's id, the context id its thread's; the state follows
 * the run's phase (input-required while it waits for a person); the history is the user's message
 * and the answer; the answer is also the task's one artifact.
 */
final class TaskViews {
  /** The id of the artifact that carries a run's answer. */
  static final String ANSWER_ARTIFACT = "answer";

  private TaskViews() {}

  static TaskState stateOf(RunPhase phase) {
    return switch (phase) {
      case PENDING -> TaskState.SUBMITTED;
      case RUNNING -> TaskState.WORKING;
      case COMPLETED -> TaskState.COMPLETED;
      case FAILED -> TaskState.FAILED;
      case CANCELLED -> TaskState.CANCELED;
    };
  }

  /**
   * The task of {@code run}; {@code answer} null while there is none; {@code historyLength} the
   * most recent messages to include (null: all).
   */
  static Task task(Run run, String message, String answer, Integer historyLength) {
    List<Message> history = new ArrayList<>();
    history.add(userMessage(run, message));
    if (answer != null && !answer.isEmpty()) {
      history.add(agentMessage(run, ThreadTasks.answerMessageId(run), answer));
    }
    if (historyLength != null) {
      int keep = Math.max(0, Math.min(historyLength, history.size()));
      history = history.subList(history.size() - keep, history.size());
    }
    List<Artifact> artifacts =
        answer == null || answer.isEmpty() ? List.of() : List.of(answerArtifact(answer));
    return new Task(
        ThreadTasks.runIdOf(run),
        ThreadTasks.threadIdOf(run),
        status(run),
        artifacts,
        List.copyOf(history),
        null);
  }

  /** The run's state; a failed or cancelled run's says why. */
  static TaskStatus status(Run run) {
    RunPhase phase = RunPhase.of(run);
    Message why =
        switch (phase) {
          case FAILED ->
              agentMessage(
                  run,
                  ThreadTasks.answerMessageId(run) + "_status",
                  Optional.ofNullable(run.getStatus())
                      .map(RunStatus::getError)
                      .map(RunError::getMessage)
                      .orElse("The execution failed"));
          case CANCELLED ->
              agentMessage(
                  run, ThreadTasks.answerMessageId(run) + "_status", "The execution was cancelled");
          default -> null;
        };
    RunWait wait = run.getStatus() == null ? null : run.getStatus().getWaitingFor();
    if (phase == RunPhase.RUNNING && wait != null) {
      return inputRequired(run, wait.getCallId(), wait.getKind(), wait.getTool(), null);
    }
    return new TaskStatus(stateOf(phase), why, null);
  }

  /**
   * The run waits for a person (an approval or an {@code ask_user} question): the status message
   * says what is asked and how to answer it (the REST approvals endpoint, naming the call).
   */
  static TaskStatus inputRequired(
      Run run, String callId, String kind, String tool, String question) {
    String asked =
        RunWait.QUESTION.equals(kind)
            ? "The agent asks: " + (question == null ? "(see the thread's log)" : question)
            : "The agent waits for approval to call " + tool + ".";
    String how =
        " Answer with POST /v1/threads/"
            + ThreadTasks.threadIdOf(run)
            + "/approvals {\"callId\": \""
            + callId
            + (RunWait.QUESTION.equals(kind)
                ? "\", \"answer\": \"…\"}"
                : "\", \"decision\": \"approve\" or \"deny\"}");
    return new TaskStatus(
        TaskState.INPUT_REQUIRED,
        agentMessage(run, ThreadTasks.answerMessageId(run) + "_input_" + callId, asked + how),
        null);
  }

  static Message userMessage(Run run, String text) {
    return message(Message.Role.USER, run, ThreadTasks.userMessageId(run), text);
  }

  static Message agentMessage(Run run, String messageId, String text) {
    return message(Message.Role.AGENT, run, messageId, text);
  }

  static Artifact answerArtifact(String answer) {
    return new Artifact.Builder()
        .artifactId(ANSWER_ARTIFACT)
        .name("answer")
        .parts(List.<Part<?>>of(new TextPart(answer)))
        .build();
  }

  private static Message message(Message.Role role, Run run, String messageId, String text) {
    return new Message.Builder()
        .role(role)
        .parts(List.<Part<?>>of(new TextPart(text == null ? "" : text)))
        .messageId(messageId)
        .contextId(ThreadTasks.threadIdOf(run))
        .taskId(ThreadTasks.runIdOf(run))
        .build();
  }
}
