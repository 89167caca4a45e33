package dev.threadline.api.schedules;

import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimit;
import dev.threadline.crds.schedule.Schedule;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/** Schedule resources, as the REST layer reads and writes them. */
final class ScheduleStore extends CachedResourceStore<Schedule> {
  ScheduleStore(
      KubernetesClient client,
      ManagedInformer<Schedule> cache,
      Duration visibilityTimeout,
      ObjectLimit limit) {
    super(client, Schedule.class, cache, visibilityTimeout, limit);
  }
}
