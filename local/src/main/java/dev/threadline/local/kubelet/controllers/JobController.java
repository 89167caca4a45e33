package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.controllers.ReconcileQueue.ObjectKey;
import dev.threadline.local.kubelet.support.Owners;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Job controller of local mode (batch/v1 Jobs), talking only through the client. Scope: one Pod
 * at a time, done after one success (parallelism and completions above 1, indexed Jobs, pod failure
 * policies and the exponential back-off between retries are not played). See {@link JobSync}.
 */
public final class JobController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobController.class);

  private final KubernetesClient client;
  private final ReconcileQueue queue;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

  public JobController(KubernetesClient client) {
    this(client, InstantSource.system());
  }

  public JobController(KubernetesClient client, InstantSource clock) {
    this.client = client;
    JobSync sync = new JobSync(client, clock);
    this.queue =
        new ReconcileQueue("job-controller", clock, key -> sync.sync(key.namespace(), key.name()));
  }

  public synchronized void start() {
    informers.add(
        client
            .batch()
            .v1()
            .jobs()
            .inAnyNamespace()
            .inform(handler(job -> queue.enqueue(keyOf(job)), job -> queue.forget(keyOf(job))), 0));
    informers.add(
        client.pods().inAnyNamespace().inform(handler(this::podChanged, this::podChanged), 0));
    LOG.info("job controller started");
  }

  @Override
  public synchronized void close() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
    queue.close();
  }

  private void podChanged(Pod pod) {
    Owners.controllerOfKind(pod, "Job")
        .ifPresent(owner ->
            queue.enqueue(new ObjectKey(pod.getMetadata().getNamespace(), owner.getName())));
  }

  private static ObjectKey keyOf(HasMetadata object) {
    return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  static <T> ResourceEventHandler<T> handler(Consumer<T> changed, Consumer<T> deleted) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        changed.accept(object);
      }

      @Override
      public void onUpdate(T before, T object) {
        changed.accept(object);
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        deleted.accept(object);
      }
    };
  }
}
