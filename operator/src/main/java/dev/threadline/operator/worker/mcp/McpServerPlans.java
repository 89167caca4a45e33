package dev.threadline.operator.worker.mcp;

import dev.threadline.crds.common.SecretKeyReference;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.environment.McpServer;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The enabled MCP servers of a run's environment, as the worker connects to them: an http server's
 * bearer token is read from its Secret here, in the worker, and goes nowhere else.
 */
public final class McpServerPlans {
  private McpServerPlans() {}

  /**
   * @param spec the environment's spec, or null when the run has none
   * @throws IllegalArgumentException when a bearer token's Secret or key is missing
   */
  public static List<McpServerPlan> of(
      KubernetesClient client, String namespace, EnvironmentSpec spec) {
    if (spec == null || spec.getMcpServers() == null) {
      return List.of();
    }
    return spec.getMcpServers().stream()
        .filter(server -> !Boolean.FALSE.equals(server.getEnabled()))
        .map(server -> plan(client, namespace, server))
        .toList();
  }

  private static McpServerPlan plan(KubernetesClient client, String namespace, McpServer server) {
    boolean stdio = McpServer.STDIO.equals(server.getType());
    return new McpServerPlan(
        server.getName(),
        stdio ? McpServerPlan.STDIO : McpServerPlan.HTTP,
        server.getCommand(),
        server.getArgs(),
        server.getUrl(),
        stdio ? null : bearerToken(client, namespace, server),
        orDefault(server.getStartupTimeoutSec(), McpServer.DEFAULT_STARTUP_TIMEOUT_SEC),
        orDefault(server.getToolTimeoutSec(), McpServer.DEFAULT_TOOL_TIMEOUT_SEC));
  }

  private static String bearerToken(KubernetesClient client, String namespace, McpServer server) {
    if (server.getBearerTokenFrom() == null
        || server.getBearerTokenFrom().getSecretKeyRef() == null) {
      return null;
    }
    SecretKeyReference ref = server.getBearerTokenFrom().getSecretKeyRef();
    Secret secret = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
    String value =
        secret == null || secret.getData() == null ? null : secret.getData().get(ref.getKey());
    if (value == null) {
      throw new IllegalArgumentException(
          "the bearer token of MCP server " + server.getName() + " is missing from its Secret");
    }
    return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
  }

  private static int orDefault(Integer value, int fallback) {
    return value == null ? fallback : value;
  }
}
