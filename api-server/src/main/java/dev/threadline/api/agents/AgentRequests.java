package dev.threadline.api.agents;

/** Request bodies of the agent endpoints. Unknown fields are ignored. */
final class AgentRequests {
  private AgentRequests() {}

  /** {@code POST /v1/agents}: {@code name} and {@code model} required. */
  record Create(String name, String provider, String model, String instructions) {}

  /**
   * {@code PATCH /v1/agents/:agentId}: every field optional; an absent or null field stays as it is,
   * and an empty {@code instructions} removes them.
   */
  record Update(String name, String provider, String model, String instructions) {}
}
