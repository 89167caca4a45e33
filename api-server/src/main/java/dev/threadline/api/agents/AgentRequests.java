package dev.threadline.api.agents;

import dev.threadline.api.webhooks.WebhookInput;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Request bodies of the agent endpoints. Unknown fields are ignored. */
final class AgentRequests {
  private AgentRequests() {}

  /**
   * {@code POST /v1/agents}: {@code name} and {@code model} required; {@code webhooks} optional.
   */
  record Create(
      String name,
      String provider,
      String model,
      String instructions,
      List<WebhookInput> webhooks,
      JsonNode approvals) {}

  /**
   * {@code PATCH /v1/agents/:agentId}: every field optional; an absent or null field stays as it
   * is, and an empty {@code instructions} removes them. {@code webhooks} given replaces the whole
   * list ({@code []} removes them all). {@code approvals} given replaces the policy; {@code null}
   * removes it.
   */
  record Update(
      String name,
      String provider,
      String model,
      String instructions,
      List<WebhookInput> webhooks,
      JsonNode approvals) {}
}
