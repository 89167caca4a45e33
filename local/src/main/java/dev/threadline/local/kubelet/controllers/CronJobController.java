package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.controllers.ReconcileQueue.ObjectKey;
import dev.threadline.local.kubelet.support.Owners;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CronJob controller of local mode (batch/v1 CronJobs). Each CronJob has one timer set to its
 * next scheduled time and reset whenever the CronJob or one of its Jobs changes. The clock is
 * injectable so tests decide what time it is. See {@link CronJobSync}.
 */
public final class CronJobController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CronJobController.class);

  private final KubernetesClient client;
  private final ReconcileQueue queue;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

  public CronJobController(KubernetesClient client) {
    this(client, InstantSource.system());
  }

  public CronJobController(KubernetesClient client, InstantSource clock) {
    this.client = client;
    CronJobSync sync = new CronJobSync(client, clock);
    this.queue =
        new ReconcileQueue(
            "cronjob-controller", clock, key -> sync.sync(key.namespace(), key.name()));
  }

  public synchronized void start() {
    informers.add(
        client
            .batch()
            .v1()
            .cronjobs()
            .inAnyNamespace()
            .inform(
                JobController.handler(
                    cronJob -> queue.enqueue(keyOf(cronJob)),
                    cronJob -> queue.forget(keyOf(cronJob))),
                0));
    informers.add(
        client
            .batch()
            .v1()
            .jobs()
            .inAnyNamespace()
            .inform(JobController.handler(this::jobChanged, this::jobChanged), 0));
    LOG.info("cronjob controller started");
  }

  @Override
  public synchronized void close() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
    queue.close();
  }

  private void jobChanged(Job job) {
    Owners.controllerOfKind(job, "CronJob")
        .ifPresent(owner ->
            queue.enqueue(new ObjectKey(job.getMetadata().getNamespace(), owner.getName())));
  }

  private static ObjectKey keyOf(HasMetadata object) {
    return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }
}
