package dev.threadline.operator.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the reconciles the framework ran, per resource ({@code kind/namespace/name}), through its
 * own metrics hook: tests compare it with the status writes the mock server received.
 */
public final class Reconciles implements Metrics {
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  @Override
  public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
    counts.computeIfAbsent(key(resource), k -> new AtomicInteger()).incrementAndGet();
  }

  public int of(String kind, String namespace, String name) {
    AtomicInteger count = counts.get(kind + "/" + namespace + "/" + name);
    return count == null ? 0 : count.get();
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
