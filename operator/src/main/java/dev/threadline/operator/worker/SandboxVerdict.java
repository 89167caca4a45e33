package dev.threadline.operator.worker;

import dev.threadline.operator.computer.AgentOutcome;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Why a sandbox call broke off, when its Pod ended: a kubelet that evicts a Pod (its disk past
 * {@code emptyDir.sizeLimit} or the workspace quota, its memory) stops the processes first and
 * writes the Pod's {@code Evicted} status after, so the worker's call breaks before the reason is
 * there to read. This waits briefly for the Pod's end, reacting to its watch, and words it as the
 * computer path does ({@link AgentOutcome#decide}).
 */
final class SandboxVerdict {
  /** Longer than a kubelet takes from stopping a Pod's processes to writing its status. */
  static final Duration WAIT = Duration.ofSeconds(10);

  private SandboxVerdict() {}

  /**
   * @return the Pod's ending once it ended (or went) within {@code wait}; empty while it still runs
   *     then, or when the API cannot tell
   */
  static Optional<AgentOutcome> await(
      KubernetesClient client, String namespace, String pod, Duration wait) {
    try {
      Pod ended =
          client
              .pods()
              .inNamespace(namespace)
              .withName(pod)
              .waitUntilCondition(
                  current -> current == null || ended(current),
                  wait.toMillis(),
                  TimeUnit.MILLISECONDS);
      return AgentOutcome.decide(Optional.ofNullable(ended), deadline(ended));
    } catch (KubernetesClientException stillRunningOrUnknown) {
      return Optional.empty(); // a timeout among them (KubernetesClientTimeoutException)
    }
  }

  private static boolean ended(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Failed".equals(phase) || "Succeeded".equals(phase);
  }

  private static Duration deadline(Pod pod) {
    return pod == null || pod.getSpec().getActiveDeadlineSeconds() == null
        ? Duration.ZERO
        : Duration.ofSeconds(pod.getSpec().getActiveDeadlineSeconds());
  }
}
