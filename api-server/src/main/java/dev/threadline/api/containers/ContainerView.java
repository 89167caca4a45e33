package dev.threadline.api.containers;

import java.util.List;

/**
 * A container as REST clients see it. Times are ISO 8601 UTC with {@code Z}; {@code port} is null
 * until the operator has chosen one, {@code expiresAt} null for persistent containers.
 *
 * @param status pending, starting, running, stopping or failed
 * @param message why the container is in its status (e.g. what it waits for, why it failed); null
 *     when running
 * @param start {@code claimed} (its sandbox came from its environment's warm pool) or {@code cold};
 *     null until the operator has started it
 */
public record ContainerView(
    String id,
    String userId,
    String status,
    String message,
    String environmentId,
    String model,
    String reasoning,
    boolean persistent,
    long timeoutMs,
    List<McpServerView> mcpServers,
    Integer port,
    String start,
    String createdAt,
    String lastActivityAt,
    String expiresAt) {

  /** An MCP server; a stored bearer token shows as {@code "****"}, never as its value. */
  public record McpServerView(
      String type,
      String name,
      String command,
      List<String> args,
      String url,
      String bearerToken,
      boolean enabled,
      int startupTimeoutSec,
      int toolTimeoutSec) {}
}
