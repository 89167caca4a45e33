package dev.threadline.operator.computer;

import dev.threadline.operator.config.SettingValues;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.time.Duration;
import java.util.Map;

/**
 * How agent Pods are sized and bounded. In a cluster the values come from {@code
 * THREADLINE_AGENT_*} variables (set by the Helm chart).
 *
 * @param cpuRequest {@code THREADLINE_AGENT_CPU_REQUEST}, default 250m
 * @param memoryRequest {@code THREADLINE_AGENT_MEMORY_REQUEST}, default 512Mi (the runner is a JVM)
 * @param cpuLimit {@code THREADLINE_AGENT_CPU_LIMIT}, default 2
 * @param memoryLimit {@code THREADLINE_AGENT_MEMORY_LIMIT}, default 2Gi
 * @param deadline {@code THREADLINE_AGENT_DEADLINE_SECONDS}, default 600: the Pod's {@code
 *     activeDeadlineSeconds}; a run that takes longer ends with {@code execution_timeout}
 * @param workspaceSize {@code THREADLINE_WORKSPACE_SIZE}, default 1Gi: each thread's workspace
 *     claim (and the sizeLimit of an ephemeral container's workspace)
 * @param workspaceStorageClass {@code THREADLINE_WORKSPACE_STORAGE_CLASS}; empty means the
 *     cluster's default
 * @param cancelGracePeriod {@code THREADLINE_AGENT_CANCEL_GRACE_SECONDS}, default 3: how long a
 *     cancelled agent may take to stop before it is killed
 * @param ephemeralStorageRequest {@code THREADLINE_AGENT_EPHEMERAL_STORAGE_REQUEST}, default 256Mi
 * @param ephemeralStorageLimit {@code THREADLINE_AGENT_EPHEMERAL_STORAGE_LIMIT}, default 2Gi: the
 *     node's disk a Pod may use (its logs, writable layer and emptyDirs); over it, it is evicted
 * @param tmpSize {@code THREADLINE_AGENT_TMP_SIZE}, default 1Gi: the {@code sizeLimit} of the
 *     {@code /tmp} emptyDir
 */
public record AgentPodSettings(
    Quantity cpuRequest,
    Quantity memoryRequest,
    Quantity cpuLimit,
    Quantity memoryLimit,
    Duration deadline,
    Quantity workspaceSize,
    String workspaceStorageClass,
    Duration cancelGracePeriod,
    Quantity ephemeralStorageRequest,
    Quantity ephemeralStorageLimit,
    Quantity tmpSize) {

  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";

  public AgentPodSettings {
    if (deadline.toSeconds() < 1) {
      throw new IllegalArgumentException(
          "the agent deadline must be at least one second, was " + deadline);
    }
    if (cancelGracePeriod.isNegative()) {
      throw new IllegalArgumentException("the cancel grace period cannot be negative");
    }
    workspaceStorageClass = workspaceStorageClass == null ? "" : workspaceStorageClass.strip();
  }

  public static AgentPodSettings defaults() {
    return fromEnvironment(Map.of());
  }

  public static AgentPodSettings fromEnvironment(Map<String, String> env) {
    return new AgentPodSettings(
        quantity(env, "THREADLINE_AGENT_CPU_REQUEST", "250m"),
        quantity(env, "THREADLINE_AGENT_MEMORY_REQUEST", "512Mi"),
        quantity(env, "THREADLINE_AGENT_CPU_LIMIT", "2"),
        quantity(env, "THREADLINE_AGENT_MEMORY_LIMIT", "2Gi"),
        Duration.ofSeconds(seconds(env, "THREADLINE_AGENT_DEADLINE_SECONDS", 600)),
        quantity(env, "THREADLINE_WORKSPACE_SIZE", "1Gi"),
        env.getOrDefault("THREADLINE_WORKSPACE_STORAGE_CLASS", ""),
        Duration.ofSeconds(seconds(env, "THREADLINE_AGENT_CANCEL_GRACE_SECONDS", 3)),
        quantity(env, "THREADLINE_AGENT_EPHEMERAL_STORAGE_REQUEST", "256Mi"),
        quantity(env, "THREADLINE_AGENT_EPHEMERAL_STORAGE_LIMIT", "2Gi"),
        quantity(env, "THREADLINE_AGENT_TMP_SIZE", "1Gi"));
  }

  public AgentPodSettings withDeadline(Duration value) {
    return new AgentPodSettings(
        cpuRequest,
        memoryRequest,
        cpuLimit,
        memoryLimit,
        value,
        workspaceSize,
        workspaceStorageClass,
        cancelGracePeriod,
        ephemeralStorageRequest,
        ephemeralStorageLimit,
        tmpSize);
  }

  /**
   * The requests and limits of the runner's container (agent runs and containers alike). The number
   * of processes cannot be bounded here: the Pod spec has no PID limit; the kubelet's {@code
   * podPidsLimit} bounds every Pod of a node (see helm/README.md).
   */
  public ResourceRequirements resources() {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", cpuRequest)
        .addToRequests("memory", memoryRequest)
        .addToRequests(EPHEMERAL_STORAGE, ephemeralStorageRequest)
        .addToLimits("cpu", cpuLimit)
        .addToLimits("memory", memoryLimit)
        .addToLimits(EPHEMERAL_STORAGE, ephemeralStorageLimit)
        .build();
  }

  /** The {@code /tmp} emptyDir, of at most {@link #tmpSize}. */
  public Volume tmpVolume(String name) {
    return new VolumeBuilder()
        .withName(name)
        .withNewEmptyDir()
        .withSizeLimit(tmpSize)
        .endEmptyDir()
        .build();
  }

  private static Quantity quantity(Map<String, String> env, String key, String fallback) {
    return SettingValues.quantity(env, key, fallback);
  }

  private static long seconds(Map<String, String> env, String key, long fallback) {
    return SettingValues.whole(env, key, fallback);
  }
}
