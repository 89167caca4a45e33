package dev.threadline.operator.support;

import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/** Containers as tests wait for them. */
public final class Containers {
  private Containers() {}

  /**
   * A Container to create.
   *
   * @param environment null: the default environment
   */
  public static Container of(
      String namespace, String name, String environment, boolean persistent, long timeoutMs) {
    Container container = new Container();
    container.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
    ContainerSpec spec = new ContainerSpec();
    spec.setEnvironment(environment);
    spec.setPersistent(persistent);
    spec.setTimeoutMs(timeoutMs);
    container.setSpec(spec);
    return container;
  }

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
