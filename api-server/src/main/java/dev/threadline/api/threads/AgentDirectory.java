package dev.threadline.api.threads;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.agent.Agent;

/** Whether a tenant has an agent of a given name, from the agent cache. */
final class AgentDirectory {
  private final ManagedInformer<Agent> agents;

  AgentDirectory(ManagedInformer<Agent> agents) {
    this.agents = agents;
  }

  boolean exists(String namespace, String name) {
    return agents
        .get(namespace, name)
        .filter(agent -> agent.getMetadata().getDeletionTimestamp() == null)
        .isPresent();
  }
}
