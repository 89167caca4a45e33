package dev.threadline.local.kubelet.controllers;

import dev.threadline.local.kubelet.controllers.ReconcileQueue.ObjectKey;
import dev.threadline.local.kubelet.support.Owners;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The informer plumbing a local controller needs: its own objects (a change queues the object, a
 * deletion forgets it) and the children it makes (a change queues the child's controller of the
 * given kind), reconciled one at a time through a {@link ReconcileQueue}.
 */
final class ControllerWatches implements AutoCloseable {
  private final ReconcileQueue queue;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

  /** {@code sync} reconciles one object by namespace and name; see {@link ReconcileQueue}. */
  ControllerWatches(
      String name, InstantSource clock, BiFunction<String, String, Optional<Instant>> sync) {
    this.queue = new ReconcileQueue(name, clock, key -> sync.apply(key.namespace(), key.name()));
  }

  synchronized <T extends HasMetadata> void watchOwn(Informable<T> objects) {
    informers.add(
        objects.inform(
            handler(object -> queue.enqueue(keyOf(object)), object -> queue.forget(keyOf(object))),
            0));
  }

  synchronized <T extends HasMetadata> void watchChildren(
      Informable<T> children, String controllerKind) {
    Consumer<T> changed =
        child ->
            Owners.controllerOfKind(child, controllerKind)
                .ifPresent(owner ->
                    queue.enqueue(
                        new ObjectKey(child.getMetadata().getNamespace(), owner.getName())));
    informers.add(children.inform(handler(changed, changed), 0));
  }

  @Override
  public synchronized void close() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
    queue.close();
  }

  private static ObjectKey keyOf(HasMetadata object) {
    return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  private static <T> ResourceEventHandler<T> handler(Consumer<T> changed, Consumer<T> deleted) {
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
