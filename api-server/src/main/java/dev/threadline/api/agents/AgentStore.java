package dev.threadline.api.agents;

import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.agent.Agent;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/** Agent resources, as the REST layer reads and writes them. */
final class AgentStore extends CachedResourceStore<Agent> {
  AgentStore(KubernetesClient client, ManagedInformer<Agent> cache, Duration visibilityTimeout) {
    super(client, Agent.class, cache, visibilityTimeout);
  }
}
