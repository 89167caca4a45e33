package dev.threadline.operator.computer;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.operator.sandbox.SandboxPod;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a computer run ended. The worker decides it from the loop (a result, a model's or a tool's
 * failure) and writes it; the computer path decides, from the sandbox Pod when the Pod ends before
 * the loop did, the failure it reports in {@link SandboxCondition}:
 *
 * <ul>
 *   <li>the Pod failed with {@code DeadlineExceeded} → {@code execution_timeout};
 *   <li>the Pod ended otherwise → {@code execution_failed} with the Pod's reason;
 *   <li>the Pod is gone → {@code execution_failed}.
 * </ul>
 *
 * @param result the loop's result event (completed runs only)
 * @param runnerFailure the loop's failed event the outcome repeats, if any
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

  /**
   * The ending a run is given from outside its loop: the cancel its spec asks for, or the failure
   * the computer path reported for its sandbox ({@link SandboxCondition}); empty otherwise.
   */
  public static Optional<AgentOutcome> imposed(Run run) {
    if (Boolean.TRUE.equals(run.getSpec().getCancelRequested())) {
      return Optional.of(cancelled());
    }
    return SandboxCondition.failure(run.getStatus());
  }

  public boolean succeeded() {
    return error == null;
  }

  /**
   * @param pod the sandbox Pod, empty when it no longer exists
   * @return empty while the Pod runs
   */
  public static Optional<AgentOutcome> decide(Optional<Pod> pod, Duration deadline) {
    if (pod.isEmpty()) {
      return Optional.of(
          failed(RunErrorCode.EXECUTION_FAILED, "The agent Pod was deleted before the run ended"));
    }
    PodStatus status = pod.get().getStatus();
    String phase = status == null ? null : status.getPhase();
    if (!"Succeeded".equals(phase) && !"Failed".equals(phase)) {
      return Optional.empty();
    }
    if (DEADLINE_EXCEEDED.equals(status.getReason())) {
      return Optional.of(
          failed(
              RunErrorCode.EXECUTION_TIMEOUT,
              "The run took longer than its limit of " + deadline.toSeconds() + " seconds"));
    }
    return Optional.of(
        failed(
            RunErrorCode.EXECUTION_FAILED,
            "The agent ended without a result: " + describe(pod.get())));
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
            .filter(container -> SandboxPod.CONTAINER.equals(container.getName()))
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
