package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.MDC;

/**
 * The log context java-operator-sdk gives a reconcile — the resource's kind, namespace and name in
 * the MDC, which the log pattern prints before the message — for work outside a reconcile (the
 * agent worker's threads), so no log message spells the resource out by hand. Closing it puts back
 * what the thread had before, so contexts nest.
 */
public final class ResourceLogContext implements AutoCloseable {
  static final String KIND = "resource.kind";
  static final String NAMESPACE = "resource.namespace";
  static final String NAME = "resource.name";

  private final Map<String, String> previous = new LinkedHashMap<>();

  private ResourceLogContext(String kind, String namespace, String name) {
    put(KIND, kind);
    put(NAMESPACE, namespace);
    put(NAME, name);
  }

  public static ResourceLogContext of(HasMetadata resource) {
    return of(
        resource.getKind(),
        resource.getMetadata().getNamespace(),
        resource.getMetadata().getName());
  }

  public static ResourceLogContext of(String kind, String namespace, String name) {
    return new ResourceLogContext(kind, namespace, name);
  }

  private void put(String key, String value) {
    previous.put(key, MDC.get(key));
    MDC.put(key, value);
  }

  @Override
  public void close() {
    previous.forEach((key, value) -> {
      if (value == null) {
        MDC.remove(key);
      } else {
        MDC.put(key, value);
      }
    });
  }
}
