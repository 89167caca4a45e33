package dev.threadline.api.containers;

import java.util.List;

/**
 * Request bodies of the container endpoints. Unknown fields are ignored; absent and null are alike.
 */
final class ContainerRequests {
  private ContainerRequests() {}

  /**
   * {@code POST /api/v1/containers}; every field optional.
   *
   * @param timeout milliseconds without use before an ephemeral container is deleted (default
   *     300000)
   */
  record Create(
      String environmentId,
      String model,
      String reasoning,
      Long timeout,
      Boolean persistContainer,
      List<McpServerInput> mcpServers) {}

  /** {@code PATCH /api/v1/containers/:id}: the agent configuration. */
  record Update(String model, String reasoning) {}

  /** An MCP server, as in environments: stdio (command, args) or http (url, bearerToken). */
  record McpServerInput(
      String type,
      String name,
      String command,
      List<String> args,
      String url,
      String bearerToken,
      Boolean enabled,
      Integer startupTimeoutSec,
      Integer toolTimeoutSec) {}
}
