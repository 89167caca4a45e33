package dev.threadline.core.usage;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;

/** A calendar month in UTC: the period usage is counted and allowed in. */
public record UsagePeriod(YearMonth month) {
  private static final String LEDGER_PREFIX = "usage-";

  public static UsagePeriod of(Instant instant) {
    return new UsagePeriod(YearMonth.from(instant.atZone(ZoneOffset.UTC)));
  }

  /** {@code yyyy-MM}, as {@code UsageLedger.spec.period} holds it. */
  public String value() {
    return month.toString();
  }

  /**
   * The name of the month's {@code UsageLedger} in a user's namespace, e.g. {@code usage-2026-11}.
   */
  public String ledgerName() {
    return LEDGER_PREFIX + value();
  }

  /** The first instant of the month. */
  public Instant start() {
    return month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** The first instant of the next month (exclusive end). */
  public Instant end() {
    return month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
  }
}
