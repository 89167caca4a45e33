package dev.threadline.api.ratelimit;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Per-key rate limits; properties {@code threadline.ratelimit.*}, i.e. the environment variables
 * {@code THREADLINE_RATELIMIT_ENABLED} (default true), {@code THREADLINE_RATELIMIT_BURST} (default
 * 300) and {@code THREADLINE_RATELIMIT_PERMINUTE} (default 1200: 20 a second). A key's Secret may
 * set its own ({@code rateLimit: <burst>/<per minute>}). Counted per API server replica.
 */
@ConfigurationProperties("threadline.ratelimit")
public record RateLimitSettings(Boolean enabled, Long burst, Long perMinute) {
  public static final long DEFAULT_BURST = 300;
  public static final long DEFAULT_PER_MINUTE = 1200;

  public RateLimitSettings {
    enabled = enabled == null || enabled;
    burst = burst == null ? DEFAULT_BURST : burst;
    perMinute = perMinute == null ? DEFAULT_PER_MINUTE : perMinute;
    new RateLimit(burst, perMinute); // fail at start-up on nonsense
  }

  RateLimit defaultLimit() {
    return new RateLimit(burst, perMinute);
  }
}
