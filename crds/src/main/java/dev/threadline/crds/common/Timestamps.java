package dev.threadline.crds.common;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** Times as the contract writes them: ISO 8601 in UTC with a {@code Z} suffix. */
public final class Timestamps {
  private static final DateTimeFormatter UTC = DateTimeFormatter.ISO_INSTANT;
  private static final DateTimeFormatter SORTABLE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Timestamps() {}

  /** {@code 2026-11-21T23:57:30.123Z}: millisecond precision, always UTC. */
  public static String format(Instant instant) {
    return instant == null ? null : UTC.format(instant.truncatedTo(ChronoUnit.MILLIS));
  }

  /**
   * {@code 2026-11-21T23:57:30.120Z}: always three fraction digits, so that text order is time
   * order (an index sorts by it).
   */
  public static String sortable(Instant instant) {
    return SORTABLE.format(instant.truncatedTo(ChronoUnit.MILLIS));
  }

  /** Parses any ISO 8601 instant or offset date-time (e.g. Kubernetes' RFC 3339) to an Instant. */
  public static Optional<Instant> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException notOffset) {
      try {
        return Optional.of(Instant.parse(text));
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    }
  }

  /** Normalises a Kubernetes or ISO timestamp to the contract's form; null stays null. */
  public static String normalize(String text) {
    return parse(text).map(Timestamps::format).orElse(text);
  }

  /** The current time in the contract's form. */
  public static String now() {
    return format(Instant.now());
  }

  /** For a zone-aware display: the instant at UTC. */
  public static OffsetDateTime atUtc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
