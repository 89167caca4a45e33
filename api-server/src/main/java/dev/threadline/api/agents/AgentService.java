package dev.threadline.api.agents;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentSpec;
import dev.threadline.crds.common.ResourceIds;
import java.time.Clock;
import java.util.List;

/**
 * The agent operations of one tenant. Everything is looked up in the tenant's own namespace, so
 * another user's agent, a malformed id and a missing agent are the same 404.
 */
public final class AgentService {
  private final AgentStore store;
  private final Clock clock;

  AgentService(AgentStore store, Clock clock) {
    this.store = store;
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
    String id = ResourceIds.newId(AgentMapper.ID_PREFIX);
    Agent created = store.create(AgentMapper.newAgent(tenant.namespace(), id, spec, clock.instant()));
    return AgentMapper.toView(created, tenant.userId());
  }

  public ListEnvelope<AgentView> list(Tenant tenant, PageRequest page) {
    List<Agent> sorted = store.list(tenant.namespace()).stream()
        .filter(AgentMapper::hasRestId)
        .sorted(AgentMapper.LIST_ORDER)
        .toList();
    return page.apply(sorted).map(agent -> AgentMapper.toView(agent, tenant.userId()));
  }

  public AgentView get(Tenant tenant, String agentId) {
    return store.find(tenant.namespace(), nameOf(agentId))
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
    if (change.isEmpty()) {
      return get(tenant, agentId);
    }
    Agent updated = store.update(tenant.namespace(), name, current -> {
          change.applyTo(current.getSpec() == null ? newSpec(current) : current.getSpec());
          AgentMapper.touch(current, clock.instant());
          return current;
        })
        .orElseThrow(() -> notFound(agentId));
    return AgentMapper.toView(updated, tenant.userId());
  }

  public void delete(Tenant tenant, String agentId) {
    if (!store.delete(tenant.namespace(), nameOf(agentId))) {
      throw notFound(agentId);
    }
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
