package dev.threadline.api.containers;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.paging.ListEnvelope;
import dev.threadline.api.paging.PageRequest;
import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerSpec;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import dev.threadline.crds.environment.McpServer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container operations of one tenant. Everything is looked up in the tenant's own namespace, so
 * another user's container, a malformed id and a missing container are the same 404. The operator
 * makes and removes the Pod; this service writes the Container and its MCP tokens.
 */
public final class ContainerService {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerService.class);

  private final KubernetesClient client;
  private final ContainerStore store;
  private final McpTokenSecret tokens;
  private final ContainerActivity activity;

  ContainerService(
      KubernetesClient client,
      ContainerStore store,
      McpTokenSecret tokens,
      ContainerActivity activity) {
    this.client = client;
    this.store = store;
    this.tokens = tokens;
    this.activity = activity;
  }

  public ContainerView create(Tenant tenant, ContainerRequests.Create request) {
    ContainerRequests.Create body =
        request == null
            ? new ContainerRequests.Create(null, null, null, null, null, null)
            : request;
    String name = ResourceIds.toName(ResourceIds.newId(ContainerMapper.ID_PREFIX)).orElseThrow();
    ContainerSpec spec = new ContainerSpec();
    spec.setEnvironment(environment(tenant, body.environmentId()));
    spec.setModel(ContainerRules.model(body.model()));
    spec.setReasoning(ContainerRules.reasoning(body.reasoning()));
    spec.setTimeoutMs(ContainerRules.timeout(body.timeout()));
    spec.setPersistent(Boolean.TRUE.equals(body.persistContainer()));
    Map<String, String> bearerTokens = new HashMap<>();
    List<McpServer> servers = new ArrayList<>();
    List<ContainerRequests.McpServerInput> inputs =
        body.mcpServers() == null ? List.of() : body.mcpServers();
    if (inputs.size() > ContainerSpec.MAX_MCP_SERVERS) {
      throw ApiException.badRequest(
          "mcpServers", "may have at most " + ContainerSpec.MAX_MCP_SERVERS + " items");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < inputs.size(); i++) {
      McpServer server =
          McpServerRules.check(
              "mcpServers[" + i + "]",
              inputs.get(i),
              ContainerObjects.valuesSecretName(name),
              bearerTokens);
      if (!names.add(server.getName())) {
        throw ApiException.badRequest(
            "mcpServers[" + i + "].name", "\"" + server.getName() + "\" is given twice");
      }
      servers.add(server);
    }
    spec.setMcpServers(servers);

    Container container = new Container();
    container.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace(tenant.namespace()).build());
    container.setSpec(spec);
    Container created = store.create(container);
    try {
      tokens.write(created, bearerTokens, Set.of());
    } catch (RuntimeException e) {
      store.delete(tenant.namespace(), name);
      throw e;
    }
    LOG.info(
        "Container({}/{}) created ({}, timeout {} ms)",
        tenant.namespace(),
        name,
        spec.getPersistent() ? "persistent" : "ephemeral",
        spec.getTimeoutMs());
    return ContainerMapper.toView(created, tenant.userId());
  }

  public ListEnvelope<ContainerView> list(Tenant tenant, PageRequest page) {
    List<Container> sorted =
        store.list(tenant.namespace()).stream().sorted(ContainerMapper.LIST_ORDER).toList();
    return page.apply(sorted).map(container -> ContainerMapper.toView(container, tenant.userId()));
  }

  public ContainerView get(Tenant tenant, String id) {
    Container container = use(tenant, id);
    return ContainerMapper.toView(container, tenant.userId());
  }

  public ContainerView update(Tenant tenant, String id, ContainerRequests.Update request) {
    if (request == null || (request.model() == null && request.reasoning() == null)) {
      throw ApiException.badRequest("Request body must set model or reasoning");
    }
    String model = ContainerRules.model(request.model());
    String reasoning = ContainerRules.reasoning(request.reasoning());
    Container container = use(tenant, id);
    return ContainerMapper.toView(
        change(
            tenant,
            id,
            container,
            current -> {
              if (model != null) {
                current.getSpec().setModel(model);
              }
              if (reasoning != null) {
                current.getSpec().setReasoning(reasoning);
              }
              return current;
            }),
        tenant.userId());
  }

  public void delete(Tenant tenant, String id) {
    // The Pod, the claim and the Secrets are owned by the Container: garbage-collected with it.
    if (!store.delete(tenant.namespace(), nameOf(id))) {
      throw notFound(id);
    }
    LOG.info("Container({}/{}) deleted by its user", tenant.namespace(), nameOf(id));
  }

  public ContainerView addMcpServer(
      Tenant tenant, String id, ContainerRequests.McpServerInput input) {
    Container container = use(tenant, id);
    Map<String, String> bearerTokens = new HashMap<>();
    McpServer server =
        McpServerRules.check(
            "body",
            input,
            ContainerObjects.valuesSecretName(container.getMetadata().getName()),
            bearerTokens);
    Container updated =
        change(
            tenant,
            id,
            container,
            current -> {
              if (current.getSpec().getMcpServers().stream()
                  .anyMatch(s -> s.getName().equals(server.getName()))) {
                throw ApiException.conflict(
                    "MCP server " + server.getName() + " already exists on container " + id);
              }
              if (current.getSpec().getMcpServers().size() >= ContainerSpec.MAX_MCP_SERVERS) {
                throw ApiException.badRequest(
                    "mcpServers", "may have at most " + ContainerSpec.MAX_MCP_SERVERS + " items");
              }
              current.getSpec().getMcpServers().add(server);
              return current;
            });
    tokens.write(updated, bearerTokens, Set.of());
    return ContainerMapper.toView(updated, tenant.userId());
  }

  /** The container without the server, as adding one answers the container with it. */
  public ContainerView removeMcpServer(Tenant tenant, String id, String serverName) {
    Container container = use(tenant, id);
    Container updated =
        change(
            tenant,
            id,
            container,
            current -> {
              if (!current
                  .getSpec()
                  .getMcpServers()
                  .removeIf(server -> server.getName().equals(serverName))) {
                throw ApiException.notFound("MCP server " + serverName);
              }
              return current;
            });
    tokens.write(updated, Map.of(), Set.of(EnvironmentValues.bearerTokenKey(serverName)));
    return ContainerMapper.toView(updated, tenant.userId());
  }

  /** The caller's container, recorded as used. */
  Container use(Tenant tenant, String id) {
    Container container =
        store.find(tenant.namespace(), nameOf(id)).orElseThrow(() -> notFound(id));
    if (container.getMetadata().getDeletionTimestamp() == null) {
      activity.used(container);
    }
    return container;
  }

  private Container change(
      Tenant tenant, String id, Container seen, java.util.function.UnaryOperator<Container> edit) {
    return store
        .update(tenant.namespace(), seen.getMetadata().getName(), edit)
        .orElseThrow(() -> notFound(id));
  }

  private String environment(Tenant tenant, String environmentId) {
    if (environmentId == null) {
      return null;
    }
    String name =
        ResourceIds.toName(environmentId, "env")
            .orElseThrow(() ->
                ApiException.badRequest("environmentId", "must be an environment id (env_*)"));
    if (client.resources(Environment.class).inNamespace(tenant.namespace()).withName(name).get()
        == null) {
      throw ApiException.notFound("Environment " + environmentId);
    }
    return name;
  }

  private static String nameOf(String id) {
    return ResourceIds.toName(id, ContainerMapper.ID_PREFIX).orElseThrow(() -> notFound(id));
  }

  private static ApiException notFound(String id) {
    return ApiException.notFound("Container " + id);
  }
}
