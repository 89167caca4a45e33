package dev.threadline.api.webhooks;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.webhook.WebhookDelivery;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires webhooks: the signing-secret store the agent, environment and schedule services share, and
 * one cluster-wide WebhookDelivery informer, read per tenant namespace.
 */
@Configuration(proxyBeanMethods = false)
class WebhookConfiguration {
  @Bean
  WebhookSecrets webhookSecrets(KubernetesClient client) {
    return new WebhookSecrets(client);
  }

  @Bean
  WebhookTargets webhookTargets(ApiServerSettings settings) {
    return new WebhookTargets(settings.webhookTargets());
  }

  @Bean
  ManagedInformer<WebhookDelivery> webhookDeliveryInformer(KubernetesClient client) {
    return new ManagedInformer<>(
        "webhookdeliveries",
        client.resources(WebhookDelivery.class).inAnyNamespace().runnableInformer(0),
        Map.of());
  }

  @Bean
  WebhookDeliveries webhookDeliveries(ManagedInformer<WebhookDelivery> webhookDeliveryInformer) {
    return new WebhookDeliveries(webhookDeliveryInformer);
  }
}
