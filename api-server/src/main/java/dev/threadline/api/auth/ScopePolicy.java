package dev.threadline.api.auth;

import java.util.Set;

/**
 * Which scope an operation needs, from its method and path.
 *
 * <table>
 *   <caption>Required scopes</caption>
 *   <tr><th>path</th><th>GET, HEAD</th><th>other methods</th></tr>
 *   <tr><td>/v1/threads/**</td><td>read or threads</td><td>threads</td></tr>
 *   <tr><td>/v1/schedules/**</td><td>read or schedules</td><td>schedules</td></tr>
 *   <tr><td>/environments/**</td><td>read or environments</td><td>environments</td></tr>
 *   <tr><td>/v1/agents/**</td><td>read or agents</td><td>agents</td></tr>
 *   <tr><td>/api/v1/containers/** (the container cloud API)</td><td>read or containers</td><td>containers</td></tr>
 *   <tr><td>/a2a/** (A2A: cards, and JSON-RPC calls that start, read and cancel runs)</td><td>read or threads</td><td>threads</td></tr>
 *   <tr><td>/v1/usage</td><td>read</td><td>read</td></tr>
 *   <tr><td>/v1/webhooks/** (delivery records, read-only)</td><td>read</td><td>read</td></tr>
 *   <tr><td>/mcp (the MCP server; each tool then needs what its REST endpoint needs)</td><td>read or threads</td><td>read or threads</td></tr>
 *   <tr><td>anything else</td><td>admin</td><td>admin</td></tr>
 * </table>
 *
 * {@code admin} passes everywhere. Unknown paths need {@code admin}: a new endpoint is closed to
 * narrow keys until it is given a scope here.
 */
final class ScopePolicy {
  /** The MCP server's one endpoint. */
  static final String MCP_PATH = "/mcp";

  private ScopePolicy() {}

  /** The resource scope of a path. */
  static Scope resourceOf(String path) {
    if (under(path, "/v1/threads") || under(path, "/a2a")) {
      return Scope.THREADS;
    }
    if (under(path, "/v1/schedules")) {
      return Scope.SCHEDULES;
    }
    if (under(path, "/environments")) {
      return Scope.ENVIRONMENTS;
    }
    if (under(path, "/v1/agents")) {
      return Scope.AGENTS;
    }
    if (under(path, "/api/v1/containers")) {
      return Scope.CONTAINERS;
    }
    if (under(path, "/v1/usage") || under(path, "/v1/webhooks")) {
      return Scope.READ;
    }
    return Scope.ADMIN;
  }

  /**
   * The scope that is missing for this request, or null when the key may go ahead. Names the
   * resource scope (what to grant), not {@code read}, except where only {@code read} would do.
   */
  static Scope missing(Set<Scope> granted, String method, String path) {
    if (granted.contains(Scope.ADMIN)) {
      return null;
    }
    if (path.equals(MCP_PATH)) {
      // Every MCP message is a POST; reading its tools is open to a read key, and each tool
      // asks for its own scope when it is called.
      return missing(granted, "GET", "/v1/threads");
    }
    Scope resource = resourceOf(path);
    if (granted.contains(resource)) {
      return null;
    }
    boolean reading = "GET".equals(method) || "HEAD".equals(method);
    if (reading && resource != Scope.ADMIN && granted.contains(Scope.READ)) {
      return null;
    }
    return resource;
  }

  private static boolean under(String path, String prefix) {
    return path.equals(prefix) || path.startsWith(prefix + "/");
  }
}
