package dev.threadline.api.auth;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.core.hashing.Sha256;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides who is calling from the {@code Authorization} header: hash the presented key, find its
 * Secret, check expiry, then find the user's namespace. Every failure to identify the caller is the
 * same 401, so a caller learns nothing about which part failed. Never logs keys.
 */
public final class Authenticator {
  private static final Logger log = LoggerFactory.getLogger(Authenticator.class);

  private final ApiKeyDirectory keys;
  private final TenantDirectory tenants;
  private final Clock clock;
  private final Optional<String> deploymentEnvironment;

  public Authenticator(ApiKeyDirectory keys, TenantDirectory tenants, Clock clock) {
    this(keys, tenants, clock, null);
  }

  /**
   * @param deploymentEnvironment {@code dev}, {@code test} or {@code prod}: keys made for another
   *     environment are refused; null or blank accepts all
   */
  public Authenticator(
      ApiKeyDirectory keys, TenantDirectory tenants, Clock clock, String deploymentEnvironment) {
    this.keys = keys;
    this.tenants = tenants;
    this.clock = clock;
    this.deploymentEnvironment = KeyEnvironment.configured(deploymentEnvironment);
  }

  /**
   * The caller's tenant.
   *
   * @throws ApiException 401 when the key is missing, malformed, unknown or expired; 403 when the
   *     key's user has no tenant namespace; 503 before the caches have loaded
   */
  public Tenant authenticate(String authorizationHeader) {
    return authenticateKey(authorizationHeader).tenant();
  }

  /**
   * The caller's key: tenant, scopes and identity.
   *
   * @throws ApiException as {@link #authenticate}; also 401 for a key of another deployment
   *     environment (a dev key against prod is not a key of this deployment)
   */
  public AuthenticatedKey authenticateKey(String authorizationHeader) {
    if (!keys.isReady() || !tenants.isReady()) {
      // Refusing a valid key because our cache is still empty would look like revocation.
      throw ApiException.serviceUnavailable("The API server is starting; retry shortly");
    }
    String key = BearerTokens.parse(authorizationHeader).orElseThrow(ApiException::unauthorized);
    Optional<String> keyEnvironment = KeyEnvironment.of(key);
    if (deploymentEnvironment.isPresent()
        && keyEnvironment.isPresent()
        && !deploymentEnvironment.equals(keyEnvironment)) {
      // The environment comes from the caller's own key: naming it reveals nothing.
      throw new ApiException(
          ErrorKind.UNAUTHORIZED,
          "This API key is for the "
              + keyEnvironment.get()
              + " environment; this is "
              + deploymentEnvironment.get(),
          Map.of("WWW-Authenticate", "Bearer"));
    }
    List<ApiKeySecret> matches = keys.findByHash(Sha256.hex(key));
    List<ApiKeySecret> valid =
        matches.stream().filter(match -> match.isValidAt(clock.instant())).toList();
    if (valid.isEmpty()) {
      if (!matches.isEmpty()) {
        log.debug("Refused an expired API key (secret {})", matches.getFirst().secretName());
      }
      throw ApiException.unauthorized();
    }
    List<String> users = valid.stream().map(ApiKeySecret::user).distinct().toList();
    if (users.size() > 1) {
      log.warn(
          "One API key is registered for several users (secrets {}); refusing it",
          valid.stream().map(ApiKeySecret::secretName).toList());
      throw ApiException.unauthorized();
    }
    Set<Scope> scopes = EnumSet.allOf(Scope.class);
    for (ApiKeySecret match : valid) {
      // The same key registered twice: it may do only what both registrations allow.
      scopes.retainAll(Scope.parseList(match.scopes()));
    }
    ApiKeySecret first = valid.getFirst();
    return new AuthenticatedKey(
        tenantOf(users.getFirst()), scopes, first.secretName(), first.rateLimit());
  }

  private Tenant tenantOf(String userId) {
    List<String> namespaces = tenants.namespacesOf(userId);
    if (namespaces.isEmpty()) {
      throw ApiException.forbidden(
          "User " + userId + " has no tenant namespace; an operator must create one");
    }
    if (namespaces.size() > 1) {
      log.warn("User {} has several tenant namespaces {}; refusing to guess", userId, namespaces);
      throw ApiException.forbidden("User " + userId + " has more than one tenant namespace");
    }
    return new Tenant(userId, namespaces.getFirst());
  }
}
