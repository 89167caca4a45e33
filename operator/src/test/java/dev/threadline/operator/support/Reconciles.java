package dev.threadline.operator.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Counts the reconciles the framework ran, per resource ({@code kind/namespace/name}), through its
 * own metrics hook, and when each started: tests compare the counts with the status writes the mock
 * server received, and the times with a retry's backoff.
 */
public final class Reconciles implements Metrics {
  private final Map<String, List<Long>> starts = new ConcurrentHashMap<>();

  @Override
  public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
    starts.computeIfAbsent(key(resource), k -> new CopyOnWriteArrayList<>()).add(System.nanoTime());
  }

  public int of(String kind, String namespace, String name) {
    return startsOf(kind, namespace, name).size();
  }

  /** When each reconcile of the resource started ({@link System#nanoTime}), oldest first. */
  public List<Long> startsOf(String kind, String namespace, String name) {
    return List.copyOf(starts.getOrDefault(kind + "/" + namespace + "/" + name, List.of()));
  }

  private static String key(HasMetadata resource) {
    return resource.getKind()
        + "/"
        + resource.getMetadata().getNamespace()
        + "/"
        + resource.getMetadata().getName();
  }

  /** Waits until the resource's reconciles stop; returns how many there were. */
  public int awaitSettled(String kind, String namespace, String name) {
    return (int) Settled.count(() -> of(kind, namespace, name));
  }
}
