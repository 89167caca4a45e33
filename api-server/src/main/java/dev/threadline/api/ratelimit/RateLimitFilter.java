package dev.threadline.api.ratelimit;

import dev.threadline.api.auth.AuthenticatedKey;
import dev.threadline.api.auth.AuthenticationFilter;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.api.metrics.ApiMetrics;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Limits each API key's request rate with a token bucket, after authentication (so the key is
 * known) and before any work. Every limited response carries {@code RateLimit-Limit} (the burst),
 * {@code RateLimit-Remaining} and {@code RateLimit-Reset} (seconds until the bucket is full again);
 * a refusal is 429 with {@code Retry-After} (seconds until one request is allowed) and {@code
 * {error, message, code: "rate_limited"}}. The health probes are never limited.
 */
final class RateLimitFilter extends OncePerRequestFilter {
  private static final Logger log = LoggerFactory.getLogger(RateLimitFilter.class);
  static final String CODE = "rate_limited";

  /** 429's body: the usual error body plus the contract's code. */
  record RateLimitedBody(String error, String message, String code) {}

  private final KeyBuckets buckets = new KeyBuckets();
  private final RateLimitSettings settings;
  private final JsonMapper json;
  private final ApiMetrics metrics;

  RateLimitFilter(RateLimitSettings settings, JsonMapper json, ApiMetrics metrics) {
    this.settings = settings;
    this.json = json;
    this.metrics = metrics;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !settings.enabled() || AuthenticationFilter.isPublic(request);
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (!(request.getAttribute(AuthenticatedKey.REQUEST_ATTRIBUTE)
        instanceof AuthenticatedKey key)) {
      chain.doFilter(
          request, response); // not authenticated: the authentication filter answered already
      return;
    }
    RateLimit limit = limitOf(key);
    ConsumptionProbe probe = buckets.take(key.keyId(), limit);
    response.setHeader("RateLimit-Limit", Long.toString(limit.burst()));
    response.setHeader("RateLimit-Remaining", Long.toString(probe.getRemainingTokens()));
    response.setHeader("RateLimit-Reset", Long.toString(seconds(probe.getNanosToWaitForReset())));
    metrics.rateLimitChecked(probe.isConsumed());
    if (probe.isConsumed()) {
      chain.doFilter(request, response);
      return;
    }
    long retryAfter = Math.max(1, seconds(probe.getNanosToWaitForRefill()));
    log.debug(
        "Rate limited key {} of user {} for {} s", key.keyId(), key.tenant().userId(), retryAfter);
    response.setStatus(ErrorKind.TOO_MANY_REQUESTS.status());
    response.setHeader("Retry-After", Long.toString(retryAfter));
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    response.setCharacterEncoding("UTF-8");
    response
        .getOutputStream()
        .write(
            json.writeValueAsBytes(
                new RateLimitedBody(
                    ErrorKind.TOO_MANY_REQUESTS.error(),
                    "Rate limit of "
                        + limit.burst()
                        + " requests (refilled at "
                        + limit.perMinute()
                        + " a minute) exceeded; retry after "
                        + retryAfter
                        + " s",
                    CODE)));
  }

  private RateLimit limitOf(AuthenticatedKey key) {
    if (key.rateLimit() == null || key.rateLimit().isBlank()) {
      return settings.defaultLimit();
    }
    try {
      return RateLimit.parse(key.rateLimit());
    } catch (IllegalArgumentException malformed) {
      log.warn("API key {}: ignoring its rateLimit: {}", key.keyId(), malformed.getMessage());
      return settings.defaultLimit();
    }
  }

  private static long seconds(long nanos) {
    return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
  }
}
