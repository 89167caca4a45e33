package dev.threadline.api.agents;

import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.api.webhooks.WebhookViews;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/** Converts between the {@code Agent} custom resource and its REST view. */
final class AgentMapper {
  static final String ID_PREFIX = Agent.ID_PREFIX;

  /** Creation time, then id: a stable order even within one second of creation timestamps. */
  static final Comparator<Agent> LIST_ORDER =
      Comparator.comparing(AgentMapper::createdAt, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(agent -> agent.getMetadata().getName());

  private AgentMapper() {}

  static AgentView toView(Agent agent, String userId) {
    return toView(agent, userId, Map.of());
  }

  /** The view, showing the webhook secrets this write generated (by URL). */
  static AgentView toView(Agent agent, String userId, Map<String, String> generatedSecrets) {
    AgentSpec spec = Optional.ofNullable(agent.getSpec()).orElseGet(AgentSpec::new);
    Instant created = createdAt(agent);
    String createdAt = Timestamps.format(created);
    String updatedAt = Timestamps.format(RestResources.updatedAt(agent, created));
    return new AgentView(
        ResourceIds.toId(agent.getMetadata().getName()),
        userId,
        spec.getDisplayName(),
        spec.getProvider(),
        spec.getModel(),
        spec.getInstructions(),
        createdAt,
        updatedAt,
        WebhookViews.of(spec.getWebhooks(), generatedSecrets),
        ApprovalPolicyView.of(spec.getApprovals()));
  }

  /**
   * Whether a REST id can name this agent: one made with {@code kubectl} under another name (no
   * {@code agent-} prefix) could be listed but never fetched, so it is not listed either.
   */
  static boolean hasRestId(Agent agent) {
    return RestResources.hasRestId(agent, ID_PREFIX);
  }

  /** A new Agent resource for a validated create request. */
  static Agent newAgent(String namespace, String id, AgentSpec spec, Instant now) {
    Agent agent = new Agent();
    agent.setMetadata(
        RestResources.newMetadata(namespace, ResourceIds.toName(id).orElseThrow(), now));
    agent.setSpec(spec);
    return agent;
  }

  private static Instant createdAt(Agent agent) {
    return Timestamps.parse(agent.getMetadata().getCreationTimestamp()).orElse(null);
  }
}
