package dev.threadline.operator.webhooks;

import dev.threadline.core.network.AllowedTargets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How webhooks are delivered.
 *
 * @param allowedTargets {@code THREADLINE_WEBHOOK_ALLOWED_TARGETS} ({@link
 *     AllowedTargets#forWebhooks}), default {@code public}: an endpoint whose host is or resolves
 *     to an address it does not admit is refused (the delivery fails at once); {@code loopback}
 *     adds 127/8 and ::1, {@code private} also the private networks; link-local (cloud metadata)
 *     and unroutable addresses are never called
 * @param retries {@code THREADLINE_WEBHOOK_RETRY_DELAYS}, default {@code 10s,40s,160s,640s} ({@link
 *     RetrySchedule#DEFAULT}): the waits before each retry; their count is the number of retries
 * @param retention {@code THREADLINE_WEBHOOK_RETENTION}, default {@code 7d}: how long a delivered
 *     or failed WebhookDelivery is kept before it is deleted
 */
public record WebhookSettings(
    AllowedTargets allowedTargets, RetrySchedule retries, Duration retention) {
  public static final String ALLOWED_TARGETS = AllowedTargets.WEBHOOKS_VARIABLE;
  public static final String RETRY_DELAYS = "THREADLINE_WEBHOOK_RETRY_DELAYS";
  public static final String RETENTION = "THREADLINE_WEBHOOK_RETENTION";
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  public WebhookSettings {
    allowedTargets = allowedTargets == null ? AllowedTargets.PUBLIC : allowedTargets;
    retries = retries == null ? RetrySchedule.DEFAULT : retries;
    retention = retention == null ? DEFAULT_RETENTION : retention;
    if (retention.isNegative()) {
      throw new IllegalArgumentException(RETENTION + " must not be negative");
    }
    if (retries.delays().stream().anyMatch(delay -> delay.isNegative() || delay.isZero())) {
      throw new IllegalArgumentException(RETRY_DELAYS + " must list positive durations");
    }
  }

  public static WebhookSettings defaults() {
    return fromEnvironment(Map.of());
  }

  public static WebhookSettings fromEnvironment(Map<String, String> env) {
    String delays = blankToNull(env.get(RETRY_DELAYS));
    String retention = blankToNull(env.get(RETENTION));
    return new WebhookSettings(
        AllowedTargets.forWebhooks(env),
        delays == null ? RetrySchedule.DEFAULT : new RetrySchedule(durations(RETRY_DELAYS, delays)),
        retention == null ? DEFAULT_RETENTION : duration(RETENTION, retention));
  }

  public WebhookSettings withAllowedTargets(AllowedTargets allowed) {
    return new WebhookSettings(allowed, retries, retention);
  }

  public WebhookSettings withRetries(RetrySchedule schedule) {
    return new WebhookSettings(allowedTargets, schedule, retention);
  }

  public WebhookSettings withRetention(Duration duration) {
    return new WebhookSettings(allowedTargets, retries, duration);
  }

  /**
   * A comma-separated list of durations, e.g. {@code 10s,40s,160s}; {@code none} for no retries.
   */
  static List<Duration> durations(String variable, String text) {
    if (text.strip().equalsIgnoreCase("none")) {
      return List.of();
    }
    List<Duration> result = new ArrayList<>();
    for (String part : text.split(",")) {
      result.add(duration(variable, part));
    }
    return result;
  }

  /**
   * One duration: a whole number with a unit, ms, s, m, h or d (e.g. {@code 250ms}, {@code 7d}).
   */
  public static Duration duration(String variable, String text) {
    Matcher matcher = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          variable
              + " takes durations like 250ms, 10s, 5m, 2h or 7d (comma-separated where several),"
              + " got: "
              + text.strip());
    }
    long amount;
    try {
      amount = Long.parseLong(matcher.group(1));
    } catch (NumberFormatException tooLarge) {
      throw new IllegalArgumentException(variable + " has a duration too large: " + text.strip());
    }
    return switch (matcher.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
