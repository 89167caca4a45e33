package dev.threadline.api.auth;

import java.util.Set;

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
}
