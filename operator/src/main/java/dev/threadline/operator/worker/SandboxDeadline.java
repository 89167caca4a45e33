package dev.threadline.operator.worker;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.operator.computer.AgentObjects;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The run's sandbox Pod's {@code activeDeadlineSeconds} and when it ends (the kubelet counts it
 * from the Pod's start).
 */
record SandboxDeadline(Duration limit, Instant ends) {
  /** Empty when the Pod is not there, has not started, or has no deadline. */
  static Optional<SandboxDeadline> of(KubernetesClient client, Run run) {
    Pod pod;
    try {
      pod =
          client
              .pods()
              .inNamespace(run.getMetadata().getNamespace())
              .withName(AgentObjects.podName(run))
              .get();
    } catch (KubernetesClientException e) {
      return Optional.empty();
    }
    if (pod == null
        || pod.getSpec().getActiveDeadlineSeconds() == null
        || pod.getStatus() == null
        || pod.getStatus().getStartTime() == null) {
      return Optional.empty();
    }
    Duration limit = Duration.ofSeconds(pod.getSpec().getActiveDeadlineSeconds());
    return Timestamps.parse(pod.getStatus().getStartTime())
        .map(started -> new SandboxDeadline(limit, started.plus(limit)));
  }
}
