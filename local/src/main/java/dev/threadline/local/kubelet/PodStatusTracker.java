package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.support.KubeTime;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubelet's view of one Pod's status, changed as its containers start and end. The kubelet
 * alone owns a Pod's status, so each write replaces the whole status with a {@link #snapshot()}.
 * Container statuses are replaced, never mutated, so a snapshot is safe to serialise.
 */
final class PodStatusTracker {
  static final String PHASE_PENDING = "Pending";
  static final String PHASE_RUNNING = "Running";
  static final String PHASE_SUCCEEDED = "Succeeded";
  static final String PHASE_FAILED = "Failed";

  private final String hostIp = PodEnvironmentResolver.POD_IP;
  private final Map<String, PodCondition> conditions = new LinkedHashMap<>();
  private final Map<String, ContainerStatus> initStatuses = new LinkedHashMap<>();
  private final Map<String, ContainerStatus> containerStatuses = new LinkedHashMap<>();
  private String phase = PHASE_PENDING;
  private String reason;
  private String message;
  private Instant startTime;

  PodStatusTracker(Pod pod) {
    List<Container> init =
        pod.getSpec().getInitContainers() == null ? List.of() : pod.getSpec().getInitContainers();
    boolean hasInit = !init.isEmpty();
    for (Container container : init) {
      initStatuses.put(
          container.getName(),
          waitingStatus(container.getName(), container.getImage(), "PodInitializing", null));
    }
    for (Container container : pod.getSpec().getContainers()) {
      containerStatuses.put(
          container.getName(),
          waitingStatus(
              container.getName(),
              container.getImage(),
              hasInit ? "PodInitializing" : "ContainerCreating",
              null));
    }
  }

  synchronized void scheduled(Instant now) {
    startTime = now;
    setCondition("PodScheduled", true, null, now);
    setCondition(
        "Initialized",
        initStatuses.isEmpty(),
        initStatuses.isEmpty() ? null : "ContainersNotInitialized",
        now);
    setCondition("ContainersReady", false, "ContainersNotReady", now);
    setCondition("Ready", false, "ContainersNotReady", now);
  }

  synchronized void initialized(Instant now) {
    setCondition("Initialized", true, null, now);
  }

  synchronized void waiting(String container, String waitingReason, String waitingMessage) {
    Map<String, ContainerStatus> statuses = statusesOf(container);
    ContainerStatus current = statuses.get(container);
    statuses.put(
        container, waitingStatus(container, current.getImage(), waitingReason, waitingMessage));
  }

  /**
   * A container's process runs; {@code probed} when a readiness probe decides when it is ready
   * ({@link #ready}), else it is ready at once.
   */
  synchronized void started(String container, long pid, Instant startedAt, boolean probed) {
    Map<String, ContainerStatus> statuses = statusesOf(container);
    boolean init = statuses == initStatuses;
    statuses.put(
        container,
        new ContainerStatusBuilder(statuses.get(container))
            .withContainerID(containerId(pid))
            .withStarted(true)
            .withReady(!init && !probed)
            .withNewState()
            .withNewRunning()
            .withStartedAt(KubeTime.format(startedAt))
            .endRunning()
            .endState()
            .build());
    if (!init) {
      phase = PHASE_RUNNING;
      updateReadiness(startedAt);
    }
  }

  /** A running container's readiness probe succeeded (nothing changes once it ended). */
  synchronized void ready(String container, Instant now) {
    ContainerStatus current = containerStatuses.get(container);
    if (current == null
        || current.getState() == null
        || current.getState().getRunning() == null
        || Boolean.TRUE.equals(current.getReady())) {
      return;
    }
    containerStatuses.put(container, new ContainerStatusBuilder(current).withReady(true).build());
    updateReadiness(now);
  }

  private void updateReadiness(Instant now) {
    boolean allReady =
        containerStatuses.values().stream()
            .allMatch(status -> Boolean.TRUE.equals(status.getReady()));
    setCondition("ContainersReady", allReady, allReady ? null : "ContainersNotReady", now);
    setCondition("Ready", allReady, allReady ? null : "ContainersNotReady", now);
  }

  /**
   * A container has ended; {@code terminatedReason} null means the usual Completed/Error by exit
   * code.
   */
  synchronized void terminated(
      String container,
      long pid,
      int exitCode,
      String terminatedReason,
      String terminationMessage,
      Instant startedAt,
      Instant finishedAt) {
    Map<String, ContainerStatus> statuses = statusesOf(container);
    statuses.put(
        container,
        new ContainerStatusBuilder(statuses.get(container))
            .withContainerID(containerId(pid))
            .withStarted(false)
            .withReady(false)
            .withNewState()
            .withNewTerminated()
            .withContainerID(containerId(pid))
            .withExitCode(exitCode)
            .withReason(
                terminatedReason != null ? terminatedReason : exitCode == 0 ? "Completed" : "Error")
            .withMessage(terminationMessage)
            .withStartedAt(KubeTime.format(startedAt))
            .withFinishedAt(KubeTime.format(finishedAt))
            .endTerminated()
            .endState()
            .build());
    if (statuses == containerStatuses) {
      setCondition("ContainersReady", false, "ContainersNotReady", finishedAt);
      setCondition("Ready", false, "ContainersNotReady", finishedAt);
    }
  }

  /** The Pod has ended: no container will run again. */
  synchronized void finished(
      String finalPhase, String finalReason, String finalMessage, Instant now) {
    phase = finalPhase;
    reason = finalReason;
    message = finalMessage;
    String readyReason = PHASE_SUCCEEDED.equals(finalPhase) ? "PodCompleted" : "PodFailed";
    setCondition("ContainersReady", false, readyReason, now);
    setCondition("Ready", false, readyReason, now);
  }

  synchronized String phase() {
    return phase;
  }

  synchronized PodStatus snapshot() {
    return new PodStatusBuilder()
        .withPhase(phase)
        .withReason(reason)
        .withMessage(message)
        .withStartTime(startTime == null ? null : KubeTime.format(startTime))
        .withHostIP(hostIp)
        .withPodIP(hostIp)
        .withPodIPs(new PodIP(hostIp))
        .withQosClass("BestEffort")
        .withConditions(new ArrayList<>(conditions.values()))
        .withInitContainerStatuses(new ArrayList<>(initStatuses.values()))
        .withContainerStatuses(new ArrayList<>(containerStatuses.values()))
        .build();
  }

  private Map<String, ContainerStatus> statusesOf(String container) {
    if (containerStatuses.containsKey(container)) {
      return containerStatuses;
    }
    if (initStatuses.containsKey(container)) {
      return initStatuses;
    }
    throw new IllegalArgumentException("no container " + container);
  }

  private void setCondition(String type, boolean status, String conditionReason, Instant now) {
    String value = status ? "True" : "False";
    PodCondition current = conditions.get(type);
    if (current != null
        && value.equals(current.getStatus())
        && java.util.Objects.equals(conditionReason, current.getReason())) {
      return;
    }
    String transition =
        current != null && value.equals(current.getStatus())
            ? current.getLastTransitionTime()
            : KubeTime.format(now);
    conditions.put(
        type,
        new PodConditionBuilder()
            .withType(type)
            .withStatus(value)
            .withReason(conditionReason)
            .withLastTransitionTime(transition)
            .build());
  }

  private static ContainerStatus waitingStatus(
      String name, String image, String waitingReason, String waitingMessage) {
    return new ContainerStatusBuilder()
        .withName(name)
        .withImage(image)
        .withImageID("")
        .withReady(false)
        .withStarted(false)
        .withRestartCount(0)
        .withNewState()
        .withNewWaiting()
        .withReason(waitingReason)
        .withMessage(waitingMessage)
        .endWaiting()
        .endState()
        .build();
  }

  private static String containerId(long pid) {
    return "process://" + pid;
  }
}
