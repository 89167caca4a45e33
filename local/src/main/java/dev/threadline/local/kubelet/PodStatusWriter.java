package dev.threadline.local.kubelet;

import dev.threadline.local.kubelet.support.StatusUpdates;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Publishes a {@link PodStatusTracker}'s snapshot through the Pod's status subresource. Writes are
 * serialised and each takes the latest snapshot, so an older status never overwrites a newer one.
 * Once the Pod is being deleted (or the kubelet stops) nothing is written any more: a Pod's end
 * caused by its deletion must not bring the object back.
 */
final class PodStatusWriter {
  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final String uid;
  private final PodStatusTracker tracker;
  private volatile boolean silenced;

  PodStatusWriter(KubernetesClient client, Pod pod, PodStatusTracker tracker) {
    this.client = client;
    this.namespace = pod.getMetadata().getNamespace();
    this.name = pod.getMetadata().getName();
    this.uid = pod.getMetadata().getUid();
    this.tracker = tracker;
  }

  synchronized void write() {
    if (silenced) {
      return;
    }
    PodStatus status = tracker.snapshot();
    StatusUpdates.update(
        client,
        Pod.class,
        namespace,
        name,
        uid,
        latest -> {
          if (silenced || latest.getMetadata().getDeletionTimestamp() != null) {
            return false;
          }
          latest.setStatus(status);
          return true;
        });
  }

  void silence() {
    silenced = true;
  }
}
