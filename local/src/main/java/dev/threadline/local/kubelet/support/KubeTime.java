package dev.threadline.local.kubelet.support;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Kubernetes' timestamp format (RFC 3339, UTC, whole seconds), as the API server writes it. */
public final class KubeTime {
  private KubeTime() {}

  /**
   * {@code instant} plus {@code seconds} (a spec's deadline or TTL, any int64 the API accepts),
   * {@link Instant#MAX} rather than an overflow.
   */
  public static Instant plusSeconds(Instant instant, long seconds) {
    try {
      return instant.plusSeconds(seconds);
    } catch (DateTimeException | ArithmeticException e) {
      return seconds > 0 ? Instant.MAX : Instant.MIN;
    }
  }

  public static String format(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * Parses a timestamp written by any API server (UTC {@code Z} or with an offset); null stays
   * null.
   */
  public static Instant parse(String timestamp) {
    if (timestamp == null || timestamp.isBlank()) {
      return null;
    }
    return OffsetDateTime.parse(timestamp).toInstant();
  }
}
