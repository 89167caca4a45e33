package dev.threadline.api.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires webhooks: the signing-secret store the agent, environment and schedule services share. */
@Configuration(proxyBeanMethods = false)
class WebhookConfiguration {
  @Bean
  WebhookSecrets webhookSecrets(KubernetesClient client) {
    return new WebhookSecrets(client);
  }
}
