package dev.threadline.operator.schedule;

import dev.threadline.crds.schedule.Schedule;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Whether a schedule the operator's cache holds is still there in the API: the same object (by
 * uid), not being deleted. Read from the API, not the cache, which can lag behind a deletion.
 */
final class LiveSchedules {
  private LiveSchedules() {}

  static boolean stillThere(KubernetesClient client, Schedule cached) {
    if (cached.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    Schedule live =
        client
            .resources(Schedule.class)
            .inNamespace(cached.getMetadata().getNamespace())
            .withName(cached.getMetadata().getName())
            .get();
    return live != null
        && live.getMetadata().getUid().equals(cached.getMetadata().getUid())
        && live.getMetadata().getDeletionTimestamp() == null;
  }
}
