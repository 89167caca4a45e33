package dev.threadline.operator.container;

import dev.threadline.crds.container.ContainerPhase;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A container's phase as its Pod shows it: none yet or not scheduled → pending; running but not
 * ready (the file API does not answer yet) → starting; ready → running; ended → failed.
 *
 * @param message why, for people; null when running
 */
record ContainerState(ContainerPhase phase, String message) {

  static ContainerState of(Optional<Pod> found) {
    if (found.isEmpty()) {
      return new ContainerState(ContainerPhase.PENDING, "creating the Pod");
    }
    Pod pod = found.get();
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      return new ContainerState(ContainerPhase.PENDING, "replacing the Pod");
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      return new ContainerState(ContainerPhase.FAILED, "the Pod ended: " + ended(pod));
    }
    if ("Running".equals(phase)) {
      return isReady(pod)
          ? new ContainerState(ContainerPhase.RUNNING, null)
          : new ContainerState(ContainerPhase.STARTING, "waiting for the file API to answer");
    }
    return new ContainerState(
        ContainerPhase.PENDING, waiting(pod).orElse("waiting for the Pod to start"));
  }

  private static boolean isReady(Pod pod) {
    return Objects.requireNonNullElse(
            pod.getStatus().getConditions(),
            List.<io.fabric8.kubernetes.api.model.PodCondition>of())
        .stream()
        .anyMatch(condition ->
            "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
  }

  private static Optional<String> waiting(Pod pod) {
    return statuses(pod).stream()
        .filter(status -> status.getState() != null && status.getState().getWaiting() != null)
        .map(status -> status.getState().getWaiting())
        .map(waiting ->
            waiting.getReason() + (waiting.getMessage() == null ? "" : ": " + waiting.getMessage()))
        .findFirst();
  }

  private static String ended(Pod pod) {
    String reason = pod.getStatus().getReason();
    String message = pod.getStatus().getMessage();
    if (reason != null || message != null) {
      return Objects.requireNonNullElse(reason, "")
          + (message == null ? "" : (reason == null ? "" : ": ") + message);
    }
    return statuses(pod).stream()
        .filter(status -> status.getState() != null && status.getState().getTerminated() != null)
        .map(status -> status.getState().getTerminated())
        .map(terminated ->
            "exit code "
                + terminated.getExitCode()
                + (terminated.getMessage() == null ? "" : ": " + terminated.getMessage().strip()))
        .findFirst()
        .orElse(pod.getStatus().getPhase());
  }

  private static List<ContainerStatus> statuses(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
        ? List.of()
        : pod.getStatus().getContainerStatuses();
  }
}
