package dev.threadline.api.usage;

import dev.threadline.core.usage.UsagePlans;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Tiers and allowances; properties {@code threadline.usage.*}, i.e. the environment variables
 * {@code THREADLINE_USAGE_TIERS} ({@code free=10,pro=100,...}, USD per month) and {@code
 * THREADLINE_USAGE_DEFAULT_TIER}, the same variables the operator reads.
 */
@ConfigurationProperties("threadline.usage")
public record UsageSettings(String tiers, String defaultTier) {
  public UsagePlans plans() {
    return UsagePlans.parse(
        tiers == null || tiers.isBlank() ? UsagePlans.DEFAULT_TIERS : tiers,
        defaultTier == null || defaultTier.isBlank() ? UsagePlans.DEFAULT_TIER : defaultTier);
  }
}
