package dev.threadline.api.containers;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.auth.AuthenticatedKey;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.limits.ObjectLimitSettings;
import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the container endpoints: one cluster-wide Container informer, read per tenant namespace.
 */
@Configuration(proxyBeanMethods = false)
class ContainerConfiguration {
  /** The longest one file call to a container may take (a 10 MiB upload or download included). */
  private static final Duration FILE_CALL_TIMEOUT = Duration.ofSeconds(60);

  @Bean
  ManagedInformer<Container> containerInformer(KubernetesClient client) {
    return new ManagedInformer<>(
        "containers",
        client.resources(Container.class).inAnyNamespace().runnableInformer(0),
        Map.of());
  }

  @Bean
  ContainerService containerService(
      KubernetesClient client,
      ManagedInformer<Container> containerInformer,
      ApiServerSettings settings,
      ObjectLimitSettings limits,
      Clock clock) {
    ContainerStore store =
        new ContainerStore(
            client, containerInformer, settings.writeVisibilityTimeout(), limits.containerLimit());
    return new ContainerService(
        client,
        store,
        new McpTokenSecret(client),
        new ContainerActivity(
            store, clock, () -> AuthenticatedKey.currentMayWrite("/api/v1/containers")));
  }

  @Bean
  ContainerFiles containerFiles(
      ContainerService containerService, KubernetesClient client, Clock clock) {
    return new ContainerFiles(
        containerService,
        new ContainerAccess(client),
        new RunnerFiles(FILE_CALL_TIMEOUT),
        client,
        clock);
  }
}
