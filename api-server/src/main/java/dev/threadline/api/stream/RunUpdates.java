package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.springframework.context.SmartLifecycle;

/**
 * Fans the Run informer's notifications out to whoever follows one run (a stream, a waiting {@code
 * stream: false} request). Listeners are called on the informer's thread and must only hand the
 * update over (e.g. to a queue), never block. On shutdown every listener hears so, and open streams
 * can end cleanly before the web server stops.
 */
public final class RunUpdates implements ResourceEventHandler<Run>, SmartLifecycle {
  private final Map<String, Set<Consumer<RunUpdate>>> listeners = new ConcurrentHashMap<>();
  private volatile boolean running;

  /** Follows the run {@code namespace/name}; close the subscription to stop. */
  public Subscription subscribe(String namespace, String name, Consumer<RunUpdate> listener) {
    String key = Cache.namespaceKeyFunc(namespace, name);
    listeners.computeIfAbsent(key, ignored -> new CopyOnWriteArraySet<>()).add(listener);
    return () ->
        listeners.computeIfPresent(
            key,
            (ignored, set) -> {
              set.remove(listener);
              return set.isEmpty() ? null : set;
            });
  }

  @Override
  public void onAdd(Run run) {
    notify(run, RunUpdate.changed(run));
  }

  @Override
  public void onUpdate(Run oldRun, Run newRun) {
    notify(newRun, RunUpdate.changed(newRun));
  }

  @Override
  public void onDelete(Run run, boolean deletedFinalStateUnknown) {
    notify(run, RunUpdate.deleted(run));
  }

  private void notify(Run run, RunUpdate update) {
    Set<Consumer<RunUpdate>> followers =
        listeners.get(
            Cache.namespaceKeyFunc(run.getMetadata().getNamespace(), run.getMetadata().getName()));
    if (followers != null) {
      followers.forEach(listener -> listener.accept(update));
    }
  }

  @Override
  public void start() {
    running = true;
  }

  /** Tells every follower that the server stops; they end their streams themselves. */
  @Override
  public void stop() {
    running = false;
    listeners
        .values()
        .forEach(set -> set.forEach(listener -> listener.accept(RunUpdate.shutdown())));
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** A registration to end. */
  @FunctionalInterface
  public interface Subscription extends AutoCloseable {
    @Override
    void close();
  }
}
