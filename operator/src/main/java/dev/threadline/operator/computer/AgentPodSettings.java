package dev.threadline.operator.computer;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
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
 *     claim
 * @param workspaceStorageClass {@code THREADLINE_WORKSPACE_STORAGE_CLASS}; empty means the
 *     cluster's default
 * @param cancelGracePeriod {@code THREADLINE_AGENT_CANCEL_GRACE_SECONDS}, default 3: how long a
 *     cancelled agent may take to stop before it is killed
 */
public record AgentPodSettings(
    Quantity cpuRequest,
    Quantity memoryRequest,
    Quantity cpuLimit,
    Quantity memoryLimit,
    Duration deadline,
    Quantity workspaceSize,
    String workspaceStorageClass,
    Duration cancelGracePeriod) {

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
        Duration.ofSeconds(seconds(env, "THREADLINE_AGENT_CANCEL_GRACE_SECONDS", 3)));
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
        cancelGracePeriod);
  }

  /** The requests and limits of the runner's container (agent runs and containers alike). */
  public ResourceRequirements resources() {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", cpuRequest)
        .addToRequests("memory", memoryRequest)
        .addToLimits("cpu", cpuLimit)
        .addToLimits("memory", memoryLimit)
        .build();
  }

  private static Quantity quantity(Map<String, String> env, String key, String fallback) {
    String value = env.get(key);
    String text = value == null || value.isBlank() ? fallback : value.strip();
    try {
      Quantity quantity = new Quantity(text);
      Quantity.getAmountInBytes(quantity); // rejects what Kubernetes would reject
      return quantity;
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalArgumentException(
          key + " must be a Kubernetes quantity (e.g. 500m, 1Gi), got: " + text);
    }
  }

  private static long seconds(Map<String, String> env, String key, long fallback) {
    String value = env.get(key);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number of seconds, got: " + value);
    }
  }
}
