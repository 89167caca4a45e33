package dev.threadline.api.auth;

import java.util.Optional;
import java.util.Set;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * A request's verified key: whose it is, what it may do, and which Secret registered it (the key's
 * identity for rate limiting; never the key itself).
 *
 * @param rateLimit the key's own rate limit from its Secret ({@code burst/perMinute}), or null
 */
public record AuthenticatedKey(Tenant tenant, Set<Scope> scopes, String keyId, String rateLimit) {
  /** The request attribute under which the authentication filter leaves it. */
  public static final String REQUEST_ATTRIBUTE = AuthenticatedKey.class.getName();

  public AuthenticatedKey {
    scopes = Set.copyOf(scopes);
  }

  /**
   * Whether this key may change what lies under {@code path}: a read that would write on the side
   * (create a missing default) asks this first, so that a {@code read} key never writes.
   */
  public boolean mayWrite(String path) {
    return ScopePolicy.missing(scopes, "POST", path) == null;
  }

  /**
   * The scope this key lacks for {@code method} on {@code path}, as the REST endpoint would ask it:
   * for protocols whose one endpoint carries many operations (MCP), each checked on its own.
   */
  public Optional<Scope> missing(String method, String path) {
    return Optional.ofNullable(ScopePolicy.missing(scopes, method, path));
  }

  /**
   * Whether the key of the request this thread serves may change what lies under {@code path};
   * false outside a request or without a key, so that a side write is never made by default.
   */
  public static boolean currentMayWrite(String path) {
    RequestAttributes request = RequestContextHolder.getRequestAttributes();
    return request != null
        && request.getAttribute(REQUEST_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST)
            instanceof AuthenticatedKey key
        && key.mayWrite(path);
  }
}
