package dev.threadline.operator.support;

import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/** Containers as tests wait for them. */
public final class Containers {
  private Containers() {}

  /** The Container once it exists and meets {@code condition}. */
  public static Container awaitContainer(
      KubernetesClient client,
      String namespace,
      String name,
      Duration wait,
      Predicate<Container> condition) {
    return Awaitility.await()
        .atMost(wait)
        .until(
            () -> client.resources(Container.class).inNamespace(namespace).withName(name).get(),
            c -> c != null && condition.test(c));
  }

  /** Its status's phase; null before the first status. */
  public static String phase(Container container) {
    return container.getStatus() == null ? null : container.getStatus().getPhase();
  }
}
