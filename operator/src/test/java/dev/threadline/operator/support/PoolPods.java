package dev.threadline.operator.support;

import static org.awaitility.Awaitility.await;

import dev.threadline.operator.pool.PoolLabels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/** A warm pool's Pods as tests see and drive them (the mock server has no kubelet). */
public final class PoolPods {
  private PoolPods() {}

  /** An environment's unclaimed pool Pods. */
  public static List<Pod> unclaimed(KubernetesClient client, String namespace, String environment) {
    return client
        .pods()
        .inNamespace(namespace)
        .withLabel(PoolLabels.POOL, environment)
        .withLabel(PoolLabels.STATE, PoolLabels.READY)
        .list()
        .getItems();
  }

  public static List<Pod> awaitUnclaimed(
      KubernetesClient client,
      String namespace,
      String environment,
      Duration wait,
      Predicate<List<Pod>> condition) {
    return await()
        .atMost(wait)
        .until(() -> unclaimed(client, namespace, environment), condition::test);
  }

  /** A Pod the (stand-in) kubelet reports running. */
  public static Predicate<Pod> running() {
    return p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase());
  }

  /** Marks the Pod running and ready at 127.0.0.1, as a kubelet would once its runner serves. */
  public static Pod markReady(KubernetesClient client, Pod pod) {
    Pod latest =
        client
            .pods()
            .inNamespace(pod.getMetadata().getNamespace())
            .withName(pod.getMetadata().getName())
            .get();
    latest.setStatus(
        new PodStatusBuilder()
            .withPhase("Running")
            .withPodIP("127.0.0.1")
            .withStartTime("2026-01-01T00:00:00Z")
            .withConditions(new PodConditionBuilder().withType("Ready").withStatus("True").build())
            .build());
    return client.resource(latest).updateStatus();
  }
}
