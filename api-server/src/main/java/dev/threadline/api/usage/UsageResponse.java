package dev.threadline.api.usage;

import java.math.BigDecimal;

/**
 * {@code GET /v1/usage}: the caller's month so far. Amounts in USD; the period is the calendar
 * month in UTC, {@code end} exclusive.
 */
public record UsageResponse(
    String userId,
    String tier,
    Period period,
    BigDecimal allowance,
    BigDecimal used,
    BigDecimal remaining,
    long inputTokens,
    long outputTokens,
    long cachedTokens,
    long runs) {

  public record Period(String start, String end) {}
}
