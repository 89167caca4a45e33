package dev.threadline.operator.model;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.models.ModelSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Optional;

/**
 * Resolves the agent a thread names from an informer cache; a thread without an agent gets the
 * operator's default model.
 */
public final class AgentProfiles implements AutoCloseable {
  private final SharedIndexInformer<Agent> agents;
  private final AgentProfile defaultProfile;

  public AgentProfiles(KubernetesClient client, ModelSettings defaults) {
    this.agents = client.resources(Agent.class).inAnyNamespace().inform();
    this.defaultProfile = new AgentProfile(defaults.provider(), defaults.model(), null);
  }

  /**
   * The named agent, the default when no name is given, or empty when the named agent is missing.
   */
  public Optional<AgentProfile> resolve(String namespace, String agentName) {
    if (agentName == null || agentName.isBlank()) {
      return Optional.of(defaultProfile);
    }
    Agent agent = agents.getIndexer().getByKey(Cache.namespaceKeyFunc(namespace, agentName));
    if (agent == null || agent.getSpec() == null) {
      return Optional.empty();
    }
    AgentSpec spec = agent.getSpec();
    return Optional.of(
        new AgentProfile(
            spec.getProvider() == null ? "scripted" : spec.getProvider(),
            spec.getModel(),
            spec.getInstructions(),
            spec.getApprovals()));
  }

  @Override
  public void close() {
    agents.close();
  }
}
