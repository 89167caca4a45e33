package dev.threadline.local.kubelet.limits;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Map;

/**
 * What one container may use, as its {@code resources.limits} say, plus the kubelet's process limit
 * (a Pod spec has none: a cluster's kubelet bounds every Pod with {@code podPidsLimit}). Zero means
 * "no limit" for the memory, CPU and storage values.
 *
 * @param memoryBytes {@code limits.memory}
 * @param cpuMillis {@code limits.cpu}, in thousandths of a core
 * @param ephemeralBytes {@code limits.ephemeral-storage}: the disk the container may write (its
 *     writable root, logs and emptyDirs)
 * @param pids how many processes and threads the container may have at once
 * @param cpuSeconds the CPU time the container may use in all, where only a total can be bounded
 *     (rlimits): {@code limits.cpu} over the Pod's {@code activeDeadlineSeconds}; 0 without either
 */
public record SandboxLimits(
    long memoryBytes, long cpuMillis, long ephemeralBytes, long pids, long cpuSeconds) {
  /**
   * The processes and threads a sandbox keeps for its own program (the runner's JVM) beyond what
   * its commands may have: a command that forks without end then fails alone, and the runner still
   * answers.
   */
  static final long RUNNER_HEADROOM = 64;

  public SandboxLimits {
    if (memoryBytes < 0 || cpuMillis < 0 || ephemeralBytes < 0 || pids < 1 || cpuSeconds < 0) {
      throw new IllegalArgumentException(
          "limits must not be negative and pids at least 1: "
              + memoryBytes
              + ", "
              + cpuMillis
              + ", "
              + ephemeralBytes
              + ", "
              + pids);
    }
  }

  /**
   * How many processes and threads the runner's commands may have together: {@link #pids} less the
   * runner's headroom ({@value #RUNNER_HEADROOM}, at most half of them), at least 1.
   */
  public long commandPids() {
    return Math.max(1, pids - Math.min(RUNNER_HEADROOM, pids / 2));
  }

  /**
   * The limits of {@code container}, with at most {@code pids} processes, in a Pod that may run
   * {@code deadlineSeconds} (null: no deadline).
   */
  public static SandboxLimits of(Container container, long pids, Long deadlineSeconds) {
    Map<String, Quantity> limits =
        container.getResources() == null || container.getResources().getLimits() == null
            ? Map.of()
            : container.getResources().getLimits();
    long cpuMillis = millis(limits.get("cpu"));
    long cpuSeconds =
        cpuMillis == 0 || deadlineSeconds == null || deadlineSeconds <= 0
            ? 0
            : cpuSeconds(cpuMillis, deadlineSeconds);
    return new SandboxLimits(
        bytes(limits.get("memory")),
        cpuMillis,
        bytes(limits.get("ephemeral-storage")),
        pids,
        cpuSeconds);
  }

  private static long cpuSeconds(long cpuMillis, long deadlineSeconds) {
    try {
      return Math.max(1, Math.ceilDiv(Math.multiplyExact(cpuMillis, deadlineSeconds), 1000));
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private static long bytes(Quantity quantity) {
    if (quantity == null) {
      return 0;
    }
    BigDecimal bytes = quantity.getNumericalAmount();
    return bytes.signum() <= 0 ? 0 : saturated(bytes);
  }

  private static long millis(Quantity quantity) {
    if (quantity == null) {
      return 0;
    }
    BigDecimal millis = quantity.getNumericalAmount().movePointRight(3);
    return millis.signum() <= 0 ? 0 : Math.max(1, saturated(millis));
  }

  private static long saturated(BigDecimal value) {
    return value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0
        ? Long.MAX_VALUE
        : value.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
  }
}
