package dev.threadline.api.auth;

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
 * Authenticates every request except the health probes, before Spring MVC sees it; the tenant
 * travels on as a request attribute for {@link TenantArgumentResolver}. Failures are written here
 * as our error body, since exceptions from filters bypass Spring MVC's handlers.
 */
public final class AuthenticationFilter extends OncePerRequestFilter {
  /** Exact paths only: a prefix rule would exempt whatever a crafted path could smuggle after it. */
  static final Set<String> PUBLIC_PATHS = Set.of("/health", "/health/live");

  private final Authenticator authenticator;
  private final ErrorResponseWriter errors;

  public AuthenticationFilter(Authenticator authenticator, ErrorResponseWriter errors) {
    this.authenticator = authenticator;
    this.errors = errors;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    return PUBLIC_PATHS.contains(path);
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Tenant tenant;
    try {
      tenant = authenticator.authenticate(request.getHeader(HttpHeaders.AUTHORIZATION));
    } catch (ApiException refused) {
      errors.write(response, MappedError.of(refused));
      return;
    }
    request.setAttribute(Tenant.REQUEST_ATTRIBUTE, tenant);
    chain.doFilter(request, response);
  }
}
