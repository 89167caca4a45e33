package dev.threadline.api.agents;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.webhooks.WebhookSecrets;
import dev.threadline.api.webhooks.WebhookTargets;
import dev.threadline.crds.agent.Agent;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the agent endpoints: one cluster-wide Agent informer, read per tenant namespace. */
@Configuration(proxyBeanMethods = false)
class AgentConfiguration {
  @Bean
  ManagedInformer<Agent> agentInformer(KubernetesClient client) {
    return new ManagedInformer<>(
        "agents", client.resources(Agent.class).inAnyNamespace().runnableInformer(0), Map.of());
  }

  @Bean
  AgentService agentService(
      KubernetesClient client,
      ManagedInformer<Agent> agentInformer,
      ApiServerSettings settings,
      WebhookSecrets webhookSecrets,
      WebhookTargets webhookTargets,
      Clock clock) {
    return new AgentService(
        new AgentStore(client, agentInformer, settings.writeVisibilityTimeout()),
        webhookSecrets,
        webhookTargets,
        settings.modelPricing(),
        clock);
  }
}
