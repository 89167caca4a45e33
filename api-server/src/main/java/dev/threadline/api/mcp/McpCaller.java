package dev.threadline.api.mcp;

import dev.threadline.api.auth.AuthenticatedKey;
import dev.threadline.api.auth.Scope;
import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import io.modelcontextprotocol.common.McpTransportContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Optional;

/**
 * Who calls a tool: the API key the authentication filter verified on this very HTTP request (not
 * on the session's first one), so that every call acts for the key it carries.
 */
record McpCaller(AuthenticatedKey key) {
  private static final String CONTEXT_KEY = McpCaller.class.getName();

  /** The transport's context of one request: the verified key, when there is one. */
  static McpTransportContext contextOf(HttpServletRequest request) {
    return request.getAttribute(AuthenticatedKey.REQUEST_ATTRIBUTE) instanceof AuthenticatedKey key
        ? McpTransportContext.create(Map.of(CONTEXT_KEY, key))
        : McpTransportContext.EMPTY;
  }

  /** The caller of the request {@code context} belongs to; 401 when it has no verified key. */
  static McpCaller of(McpTransportContext context) {
    if (context != null && context.get(CONTEXT_KEY) instanceof AuthenticatedKey key) {
      return new McpCaller(key);
    }
    // Only reachable if the filter did not run for the MCP endpoint: fail closed.
    throw ApiException.unauthorized();
  }

  Tenant tenant() {
    return key.tenant();
  }

  /**
   * Refuses (403) what the key could not do through REST: {@code method} on {@code path} names the
   * REST endpoint the tool stands for.
   */
  McpCaller require(String method, String path) {
    Optional<Scope> missing = key.missing(method, path);
    if (missing.isPresent()) {
      throw ApiException.forbidden("this API key lacks the " + missing.get().value() + " scope");
    }
    return this;
  }
}
