package dev.threadline.operator.computer;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.crds.run.RunErrorCode;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a computer run ended, decided from the agent Pod and its log.
 *
 * <ul>
 *   <li>the runner's {@code result} line → completed, at once (the runner exits right after it);
 *   <li>the Pod failed with {@code DeadlineExceeded} → {@code execution_timeout}, even though the
 *       runner, stopped by SIGTERM, wrote {@code failed "cancelled"};
 *   <li>the runner's {@code failed} line → its code and message, once the Pod has ended;
 *   <li>the Pod ended without either → {@code execution_failed} with the Pod's reason;
 *   <li>the Pod is gone → {@code execution_failed}.
 * </ul>
 *
 * Until the Pod has ended and its log is fully read, there is no outcome yet.
 *
 * @param result the runner's result event (completed runs only)
 * @param runnerFailure the runner's failed event the outcome repeats, if any
 */
public record AgentOutcome(
    RunErrorCode error, String message, RunnerEvent result, RunnerEvent runnerFailure) {
  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
  private static final int MAX_POD_MESSAGE = 500;

  public static AgentOutcome completed(RunnerEvent result) {
    return new AgentOutcome(null, null, result, null);
  }

  public static AgentOutcome failed(RunErrorCode error, String message) {
    return new AgentOutcome(error, message, null, null);
  }

  public static AgentOutcome cancelled() {
    return failed(RunErrorCode.CANCELLED, "Cancelled on request");
  }

  public boolean succeeded() {
    return error == null;
  }

  /**
   * @param pod the agent Pod, empty when it no longer exists
   * @param log what was read of its log, empty when it is not followed
   */
  static Optional<AgentOutcome> decide(
      Optional<Pod> pod, Optional<FollowedPod.Snapshot> log, Duration deadline) {
    Optional<RunnerEvent> terminal = log.flatMap(FollowedPod.Snapshot::terminal);
    if (terminal.isPresent() && terminal.get().type() == RunnerEventType.RESULT) {
      return Optional.of(completed(terminal.get()));
    }
    if (pod.isEmpty()) {
      return Optional.of(
          failed(RunErrorCode.EXECUTION_FAILED, "The agent Pod was deleted before the run ended"));
    }
    PodStatus status = pod.get().getStatus();
    String phase = status == null ? null : status.getPhase();
    if (!"Succeeded".equals(phase) && !"Failed".equals(phase)) {
      return Optional.empty();
    }
    if (log.isPresent() && !log.get().complete()) {
      return Optional.empty(); // the last lines are still on their way
    }
    if (DEADLINE_EXCEEDED.equals(status.getReason())) {
      return Optional.of(
          failed(
              RunErrorCode.EXECUTION_TIMEOUT,
              "The run took longer than its limit of " + deadline.toSeconds() + " seconds"));
    }
    if (terminal.isPresent()) {
      RunnerEvent failure = terminal.get();
      return Optional.of(
          new AgentOutcome(
              code(failure.text("code")),
              failure.text("message").isBlank() ? "The agent failed" : failure.text("message"),
              null,
              failure));
    }
    return Optional.of(
        failed(
            RunErrorCode.EXECUTION_FAILED,
            "The agent ended without a result: " + describe(pod.get())));
  }

  static RunErrorCode code(String code) {
    for (RunErrorCode candidate : RunErrorCode.values()) {
      if (candidate.code().equals(code)) {
        return candidate;
      }
    }
    return RunErrorCode.EXECUTION_FAILED;
  }

  /** The Pod's own words on why it ended: its reason, else its runner container's. */
  static String describe(Pod pod) {
    PodStatus status = pod.getStatus();
    if (status.getReason() != null) {
      return status.getReason()
          + (status.getMessage() == null ? "" : ": " + bounded(status.getMessage()));
    }
    Optional<ContainerStateTerminated> ended =
        Objects.requireNonNullElse(status.getContainerStatuses(), List.<ContainerStatus>of())
            .stream()
            .filter(container -> AgentObjects.CONTAINER.equals(container.getName()))
            .map(ContainerStatus::getState)
            .filter(Objects::nonNull)
            .map(state -> state.getTerminated())
            .filter(Objects::nonNull)
            .findFirst();
    if (ended.isEmpty()) {
      return "Pod " + status.getPhase();
    }
    ContainerStateTerminated terminated = ended.get();
    String text =
        Objects.requireNonNullElse(terminated.getReason(), "Terminated")
            + " (exit code "
            + terminated.getExitCode()
            + ")";
    return terminated.getMessage() == null || terminated.getMessage().isBlank()
        ? text
        : text + ": " + bounded(terminated.getMessage());
  }

  private static String bounded(String message) {
    String text = message.strip();
    return text.length() <= MAX_POD_MESSAGE
        ? text
        : "…" + text.substring(text.length() - MAX_POD_MESSAGE);
  }
}
