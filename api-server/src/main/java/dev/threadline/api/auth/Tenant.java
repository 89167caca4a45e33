package dev.threadline.api.auth;

/**
 * The authenticated caller: a user id and the namespace that holds the user's resources.
 * Controllers receive it as a method argument; it never comes from request parameters.
 */
public record Tenant(String userId, String namespace) {
  /** The request attribute under which the authentication filter leaves the tenant. */
  static final String REQUEST_ATTRIBUTE = Tenant.class.getName();
}
