package dev.threadline.api.agents;

import dev.threadline.api.kubernetes.Annotations;
import dev.threadline.api.webhooks.WebhookViews;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Converts between the {@code Agent} custom resource and its REST view. */
final class AgentMapper {
  static final String ID_PREFIX = "agent";

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
    // Our annotation is written just before the API server stamps creationTimestamp (whole
    // seconds, its own clock): never let updatedAt read as earlier than createdAt.
    Instant updated =
        Optional.ofNullable(agent.getMetadata().getAnnotations())
            .map(annotations -> annotations.get(Annotations.UPDATED_AT))
            .flatMap(Timestamps::parse)
            .filter(time -> created == null || !time.isBefore(created))
            .orElse(created);
    String createdAt = Timestamps.format(created);
    String updatedAt = Timestamps.format(updated);
    return new AgentView(
        ResourceIds.toId(agent.getMetadata().getName()),
        userId,
        spec.getDisplayName(),
        spec.getProvider(),
        spec.getModel(),
        spec.getInstructions(),
        createdAt,
        updatedAt,
        WebhookViews.of(spec.getWebhooks(), generatedSecrets));
  }

  /**
   * Whether a REST id can name this agent: one made with {@code kubectl} under another name (no
   * {@code agent-} prefix) could be listed but never fetched, so it is not listed either.
   */
  static boolean hasRestId(Agent agent) {
    String name = agent.getMetadata().getName();
    return ResourceIds.isValidName(name)
        && ResourceIds.toName(ResourceIds.toId(name), ID_PREFIX).isPresent();
  }

  /** A new Agent resource for a validated create request. */
  static Agent newAgent(String namespace, String id, AgentSpec spec, Instant now) {
    Agent agent = new Agent();
    agent.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(namespace)
            .withName(ResourceIds.toName(id).orElseThrow())
            .withLabels(new LinkedHashMap<>(Map.of(Labels.MANAGED_BY, Labels.MANAGER)))
            .withAnnotations(
                new LinkedHashMap<>(Map.of(Annotations.UPDATED_AT, Timestamps.format(now))))
            .build());
    agent.setSpec(spec);
    return agent;
  }

  /** Records a change the client made; {@code agent} must be a private copy. */
  static void touch(Agent agent, Instant now) {
    Map<String, String> annotations =
        new LinkedHashMap<>(
            Optional.ofNullable(agent.getMetadata().getAnnotations()).orElse(Map.of()));
    annotations.put(Annotations.UPDATED_AT, Timestamps.format(now));
    agent.getMetadata().setAnnotations(annotations);
  }

  private static Instant createdAt(Agent agent) {
    return Timestamps.parse(agent.getMetadata().getCreationTimestamp()).orElse(null);
  }
}
