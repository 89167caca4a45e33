package dev.threadline.operator.worker.mcp;

import java.util.List;

/**
 * One enabled MCP server of a run, as the worker connects to it: a stdio server runs in the
 * sandbox, an http one is called by the worker with its bearer token (read from the environment's
 * Secret, it never enters the sandbox, and {@link #toString} leaves it out).
 *
 * @param type {@code stdio} or {@code http}
 * @param bearerToken the http server's token, or null
 */
public record McpServerPlan(
    String name,
    String type,
    String command,
    List<String> args,
    String url,
    String bearerToken,
    int startupTimeoutSec,
    int toolTimeoutSec) {
  public static final String STDIO = "stdio";
  public static final String HTTP = "http";

  public McpServerPlan {
    args = args == null ? List.of() : List.copyOf(args);
  }

  @Override
  public String toString() {
    return "McpServerPlan[" + name + ", " + type + "]";
  }
}
