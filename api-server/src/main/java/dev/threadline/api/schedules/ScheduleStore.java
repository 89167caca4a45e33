package dev.threadline.api.schedules;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.schedule.Schedule;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schedule resources: reads from the informer cache, writes through the Kubernetes API. After a
 * write it waits (bounded) until the cache reflects it, so this replica's next read sees the
 * write; callers answer with the object the API server returned, never the cache's.
 */
final class ScheduleStore {
  private static final Logger log = LoggerFactory.getLogger(ScheduleStore.class);
  /** A concurrent writer may win the optimistic lock; re-read and re-apply a few times. */
  private static final int UPDATE_ATTEMPTS = 3;

  private final KubernetesClient client;
  private final ManagedInformer<Schedule> cache;
  private final Duration visibilityTimeout;

  ScheduleStore(KubernetesClient client, ManagedInformer<Schedule> cache, Duration visibilityTimeout) {
    this.client = client;
    this.cache = cache;
    this.visibilityTimeout = visibilityTimeout;
  }

  /** Live (not being deleted) schedules in a namespace, unordered. Shared objects: do not modify. */
  List<Schedule> list(String namespace) {
    return cache.inNamespace(namespace).stream().filter(ScheduleStore::isLive).toList();
  }

  /** A live schedule from the cache. Shared object: do not modify. */
  Optional<Schedule> find(String namespace, String name) {
    return cache.get(namespace, name).filter(ScheduleStore::isLive);
  }

  Schedule create(Schedule schedule) {
    Schedule created = schedules().inNamespace(schedule.getMetadata().getNamespace()).resource(schedule).create();
    cache.awaitVisible(created, visibilityTimeout);
    return created;
  }

  /**
   * Applies {@code change} to the current schedule and replaces it under optimistic locking; empty
   * when there is no such schedule. {@code change} receives a private copy and may modify it.
   */
  Optional<Schedule> update(String namespace, String name, UnaryOperator<Schedule> change) {
    for (int attempt = 1; ; attempt++) {
      Schedule current = schedules().inNamespace(namespace).withName(name).get();
      if (current == null || !isLive(current)) {
        return Optional.empty();
      }
      try {
        Schedule updated = schedules().inNamespace(namespace).resource(change.apply(current)).update();
        cache.awaitVisible(updated, visibilityTimeout);
        return Optional.of(updated);
      } catch (KubernetesClientException conflict) {
        if (conflict.getCode() != 409 || attempt >= UPDATE_ATTEMPTS) {
          throw conflict;
        }
        log.debug("Schedule {}/{} changed concurrently; retrying (attempt {})", namespace, name, attempt);
      }
    }
  }

  /** Deletes the schedule; false when there was none. */
  boolean delete(String namespace, String name) {
    List<StatusDetails> deleted = schedules().inNamespace(namespace).withName(name).delete();
    if (deleted.isEmpty()) {
      return false;
    }
    String uid = deleted.getFirst().getUid();
    cache.awaitGone(namespace, name, uid, visibilityTimeout);
    return true;
  }

  private MixedOperation<Schedule, KubernetesResourceList<Schedule>, Resource<Schedule>> schedules() {
    return client.resources(Schedule.class);
  }

  /** An schedule being deleted (finalizers pending) is already gone for REST clients. */
  private static boolean isLive(Schedule schedule) {
    return schedule.getMetadata().getDeletionTimestamp() == null;
  }
}
