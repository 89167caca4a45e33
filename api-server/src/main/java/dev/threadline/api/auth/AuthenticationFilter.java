package dev.threadline.api.auth;

import dev.threadline.api.console.ConsoleAssets;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorResponseWriter;
import dev.threadline.api.errors.MappedError;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates every request except the health probes, the OpenAPI document, the console's files
 * and the server's A2A card, before Spring MVC sees it; the tenant travels on as a request
 * attribute for {@link TenantArgumentResolver}. Failures are written here as our error body, since
 * exceptions from filters bypass Spring MVC's handlers.
 */
public final class AuthenticationFilter extends OncePerRequestFilter {
  /**
   * Exact paths only: a prefix rule would exempt whatever a crafted path could smuggle after it.
   */
  static final Set<String> PUBLIC_PATHS =
      Set.of(
          "/health",
          "/health/live",
          "/openapi.yaml",
          "/openapi.json",
          "/.well-known/agent-card.json",
          "/a2a/.well-known/agent-card.json");

  private final Authenticator authenticator;
  private final ErrorResponseWriter errors;

  public AuthenticationFilter(Authenticator authenticator, ErrorResponseWriter errors) {
    this.authenticator = authenticator;
    this.errors = errors;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return isPublic(request);
  }

  /**
   * The health probes, the OpenAPI document, the console's static files and the A2A card of threads
   * without an agent (it tells nothing about any user): no key, no scope, no rate limit.
   */
  public static boolean isPublic(HttpServletRequest request) {
    return PUBLIC_PATHS.contains(pathOf(request)) || ConsoleAssets.isAsset(request);
  }

  private static String pathOf(HttpServletRequest request) {
    return request.getRequestURI().substring(request.getContextPath().length());
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    AuthenticatedKey key;
    try {
      key = authenticator.authenticateKey(request.getHeader(HttpHeaders.AUTHORIZATION));
    } catch (ApiException refused) {
      errors.write(response, MappedError.of(refused));
      return;
    }
    Scope missing = ScopePolicy.missing(key.scopes(), request.getMethod(), pathOf(request));
    if (missing != null) {
      errors.write(
          response,
          MappedError.of(
              ApiException.forbidden("this API key lacks the " + missing.value() + " scope")));
      return;
    }
    request.setAttribute(Tenant.REQUEST_ATTRIBUTE, key.tenant());
    request.setAttribute(AuthenticatedKey.REQUEST_ATTRIBUTE, key);
    chain.doFilter(request, response);
  }
}
