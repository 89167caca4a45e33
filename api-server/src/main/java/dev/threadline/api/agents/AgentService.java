package dev.threadline.api.agents;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.RestResources;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.api.webhooks.ConfiguredOn;
import dev.threadline.api.webhooks.WebhookChange;
import dev.threadline.api.webhooks.WebhookSecrets;
import dev.threadline.api.webhooks.WebhookTargets;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.ResourceIds;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The agent operations of one tenant. Everything is looked up in the tenant's own namespace, so
 * another user's agent, a malformed id and a missing agent are the same 404.
 */
public final class AgentService {
  private final AgentStore store;
  private final WebhookSecrets webhookSecrets;
  private final WebhookTargets webhookTargets;
  private final ModelPricing pricing;
  private final Clock clock;

  AgentService(
      AgentStore store,
      WebhookSecrets webhookSecrets,
      WebhookTargets webhookTargets,
      ModelPricing pricing,
      Clock clock) {
    this.store = store;
    this.webhookSecrets = webhookSecrets;
    this.webhookTargets = webhookTargets;
    this.pricing = pricing;
    this.clock = clock;
  }

  public AgentView create(Tenant tenant, AgentRequests.Create request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    AgentSpec spec = new AgentSpec();
    spec.setDisplayName(AgentRules.requiredText("name", request.name(), AgentRules.MAX_NAME));
    spec.setProvider(
        request.provider() == null
            ? AgentProvider.DEFAULT.wireName()
            : AgentProvider.parse("provider", request.provider()).wireName());
    spec.setModel(AgentRules.requiredText("model", request.model(), AgentRules.MAX_MODEL));
    spec.setInstructions(AgentRules.instructions(request.instructions()));
    if (request.approvals() != null && !request.approvals().isNull()) {
      spec.setApprovals(ApprovalPolicyRules.parse(request.approvals()));
    }
    AgentRules.requirePriced(pricing, spec);
    WebhookChange webhooks = webhookTargets.change(request.webhooks(), ConfiguredOn.AGENT);
    String id = ResourceIds.newId(AgentMapper.ID_PREFIX);
    String name = ResourceIds.toName(id).orElseThrow();
    WebhookChange.Resolved resolved =
        webhooks == null ? null : webhooks.resolve(name, List.of(), Map.of());
    if (resolved != null) {
      spec.setWebhooks(resolved.endpoints());
    }
    Agent created =
        store.create(AgentMapper.newAgent(tenant.namespace(), id, spec, clock.instant()));
    if (resolved != null) {
      webhookSecrets.writeForNew(created, resolved, () -> store.delete(tenant.namespace(), name));
    }
    return AgentMapper.toView(
        created, tenant.userId(), resolved == null ? Map.of() : resolved.generated());
  }

  public ListEnvelope<AgentView> list(Tenant tenant, PageRequest page) {
    List<Agent> sorted =
        store.list(tenant.namespace()).stream()
            .filter(AgentMapper::hasRestId)
            .sorted(AgentMapper.LIST_ORDER)
            .toList();
    return page.apply(sorted).map(agent -> AgentMapper.toView(agent, tenant.userId()));
  }

  public AgentView get(Tenant tenant, String agentId) {
    return store
        .find(tenant.namespace(), nameOf(agentId))
        .map(agent -> AgentMapper.toView(agent, tenant.userId()))
        .orElseThrow(() -> notFound(agentId));
  }

  public AgentView update(Tenant tenant, String agentId, AgentRequests.Update request) {
    if (request == null) {
      throw ApiException.badRequest("Request body is required");
    }
    String name = nameOf(agentId);
    // Validate before touching the cluster, so a bad field never costs a round trip.
    AgentSpecChange change = AgentSpecChange.of(request);
    WebhookChange webhooks = webhookTargets.change(request.webhooks(), ConfiguredOn.AGENT);
    if (change.isEmpty() && webhooks == null) {
      return get(tenant, agentId);
    }
    Map<String, String> stored =
        webhooks == null ? Map.of() : webhookSecrets.read(tenant.namespace(), name);
    AtomicReference<WebhookChange.Resolved> resolved = new AtomicReference<>();
    Agent updated =
        store
            .update(
                tenant.namespace(),
                name,
                current -> {
                  AgentSpec spec = current.getSpec() == null ? newSpec(current) : current.getSpec();
                  change.applyTo(spec);
                  if (change.changesModel()) {
                    AgentRules.requirePriced(pricing, spec);
                  }
                  if (webhooks != null) {
                    resolved.set(webhooks.resolve(name, spec.getWebhooks(), stored));
                    spec.setWebhooks(resolved.get().endpoints());
                  }
                  RestResources.touch(current, clock.instant());
                  return current;
                })
            .orElseThrow(() -> notFound(agentId));
    if (resolved.get() != null) {
      webhookSecrets.write(updated, resolved.get());
    }
    return AgentMapper.toView(
        updated, tenant.userId(), resolved.get() == null ? Map.of() : resolved.get().generated());
  }

  public void delete(Tenant tenant, String agentId) {
    String name = nameOf(agentId);
    if (!store.delete(tenant.namespace(), name)) {
      throw notFound(agentId);
    }
    // Owner references make the cluster delete it too; deleting it now leaves no window.
    webhookSecrets.delete(tenant.namespace(), name);
  }

  private static AgentSpec newSpec(Agent agent) {
    AgentSpec spec = new AgentSpec();
    agent.setSpec(spec);
    return spec;
  }

  private static String nameOf(String agentId) {
    return ResourceIds.toName(agentId, AgentMapper.ID_PREFIX).orElseThrow(() -> notFound(agentId));
  }

  private static ApiException notFound(String agentId) {
    return ApiException.notFound("Agent " + agentId);
  }
}
