package dev.threadline.api.environments;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.webhooks.WebhookSecrets;
import dev.threadline.api.webhooks.WebhookTargets;
import dev.threadline.crds.environment.Environment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the environment endpoints: one cluster-wide Environment informer, read per tenant
 * namespace.
 */
@Configuration(proxyBeanMethods = false)
class EnvironmentConfiguration {
  @Bean
  ManagedInformer<Environment> environmentInformer(KubernetesClient client) {
    var informer = client.resources(Environment.class).inAnyNamespace().runnableInformer(0);
    return new ManagedInformer<>("environments", informer, Map.of());
  }

  @Bean
  EnvironmentImageSettings environmentImageSettings() {
    return EnvironmentImageSettings.fromEnvironment(System.getenv());
  }

  @Bean
  EnvironmentStore environmentStore(
      KubernetesClient client,
      ManagedInformer<Environment> environmentInformer,
      ApiServerSettings settings,
      Clock clock) {
    return new EnvironmentStore(
        client, environmentInformer, settings.writeVisibilityTimeout(), clock);
  }

  @Bean
  EnvironmentService environmentService(
      EnvironmentStore store,
      DefaultEnvironments defaults,
      WebhookSecrets webhookSecrets,
      WebhookTargets webhookTargets,
      Clock clock) {
    return new EnvironmentService(store, defaults, webhookSecrets, webhookTargets, clock);
  }

  @Bean
  DefaultEnvironments defaultEnvironments(EnvironmentStore store, Clock clock) {
    return new DefaultEnvironments(store, clock);
  }

  @Bean
  EnvironmentImageService environmentImageService(
      EnvironmentStore store, EnvironmentImageSettings settings) {
    return new EnvironmentImageService(store, new DockerfilePreview(settings));
  }

  @Bean
  EnvironmentBuilds environmentBuilds(
      KubernetesClient client, EnvironmentStore store, EnvironmentImageSettings settings) {
    return new EnvironmentBuilds(client, store, new DockerfilePreview(settings));
  }
}
