package dev.threadline.core.usage;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tiers and their monthly allowances (USD), and which plan a user is on: the tier named by the
 * annotation {@value #TIER_ANNOTATION} on the user's namespace (else the default tier), with the
 * allowance of {@value #ALLOWANCE_ANNOTATION} when set (a per-user override), else the tier's.
 * Operator and api-server read the same configuration ({@code THREADLINE_USAGE_TIERS}, {@code
 * THREADLINE_USAGE_DEFAULT_TIER}), so they agree on every decision.
 */
public final class UsagePlans {
  private static final Logger LOG = LoggerFactory.getLogger(UsagePlans.class);
  public static final String TIER_ANNOTATION = "threadline.dev/tier";
  public static final String ALLOWANCE_ANNOTATION = "threadline.dev/allowance";
  public static final String TIERS_VARIABLE = "THREADLINE_USAGE_TIERS";
  public static final String DEFAULT_TIER_VARIABLE = "THREADLINE_USAGE_DEFAULT_TIER";
  public static final String DEFAULT_TIERS = "free=10,pro=100,enterprise=1000";
  public static final String DEFAULT_TIER = "free";
  private static final Pattern TIER_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");

  private final Map<String, BigDecimal> tiers;
  private final String defaultTier;

  private UsagePlans(Map<String, BigDecimal> tiers, String defaultTier) {
    this.tiers = Collections.unmodifiableMap(new LinkedHashMap<>(tiers));
    this.defaultTier = defaultTier;
  }

  public static UsagePlans defaults() {
    return parse(DEFAULT_TIERS, DEFAULT_TIER);
  }

  /** From the environment variables above; unset ones take the defaults. */
  public static UsagePlans fromEnvironment(Map<String, String> env) {
    return parse(
        orDefault(env.get(TIERS_VARIABLE), DEFAULT_TIERS),
        orDefault(env.get(DEFAULT_TIER_VARIABLE), DEFAULT_TIER));
  }

  /**
   * @param tiers {@code name=usd,...}, e.g. {@code free=10,pro=100}
   * @param defaultTier the tier of users whose namespace names none; must be one of them
   * @throws IllegalArgumentException naming what is malformed
   */
  public static UsagePlans parse(String tiers, String defaultTier) {
    Map<String, BigDecimal> parsed = new LinkedHashMap<>();
    for (String entry : tiers.split(",")) {
      String text = entry.strip();
      if (text.isEmpty()) {
        continue;
      }
      int equals = text.indexOf('=');
      String name = equals < 0 ? "" : text.substring(0, equals).strip();
      if (!TIER_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            TIERS_VARIABLE + " entry '" + text + "' must look like tier=usd, e.g. free=10");
      }
      parsed.put(
          name, amount(text.substring(equals + 1), TIERS_VARIABLE + " entry '" + text + "'"));
    }
    String tier = defaultTier.strip();
    if (!parsed.containsKey(tier)) {
      throw new IllegalArgumentException(
          DEFAULT_TIER_VARIABLE + " '" + tier + "' is not one of the tiers " + parsed.keySet());
    }
    return new UsagePlans(parsed, tier);
  }

  /** The plan of the user whose namespace carries these annotations (null for none). */
  public UsagePlan planFor(Map<String, String> namespaceAnnotations) {
    Map<String, String> annotations =
        namespaceAnnotations == null ? Map.of() : namespaceAnnotations;
    String tier = annotations.getOrDefault(TIER_ANNOTATION, defaultTier).strip();
    if (!tiers.containsKey(tier)) {
      LOG.warn(
          "Unknown tier '{}' on a tenant namespace; using the default tier {}", tier, defaultTier);
      tier = defaultTier;
    }
    BigDecimal allowance = tiers.get(tier);
    String override = annotations.get(ALLOWANCE_ANNOTATION);
    if (override != null && !override.isBlank()) {
      try {
        allowance = amount(override, ALLOWANCE_ANNOTATION);
      } catch (IllegalArgumentException malformed) {
        // A typo must not lift the limit: the tier's allowance stands.
        LOG.warn("Ignoring {}: {}", ALLOWANCE_ANNOTATION, malformed.getMessage());
      }
    }
    return new UsagePlan(tier, allowance);
  }

  public Map<String, BigDecimal> tiers() {
    return tiers;
  }

  public String defaultTier() {
    return defaultTier;
  }

  private static BigDecimal amount(String text, String where) {
    BigDecimal amount;
    try {
      amount = new BigDecimal(text.strip());
    } catch (NumberFormatException notANumber) {
      throw new IllegalArgumentException(
          where + ": '" + text.strip() + "' is not an amount in USD");
    }
    if (amount.signum() < 0) {
      throw new IllegalArgumentException(where + ": the allowance must not be negative");
    }
    return amount;
  }

  private static String orDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }

  @Override
  public String toString() {
    return "UsagePlans" + tiers + " default " + defaultTier;
  }
}
