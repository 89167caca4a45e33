package dev.threadline.api.usage;

import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlan;
import java.math.BigDecimal;

/** Where a user stands this month: the plan, and what the month's finished runs used. */
record UsageStanding(
    UsagePlan plan,
    UsagePeriod period,
    BigDecimal used,
    long inputTokens,
    long outputTokens,
    long cachedTokens,
    long runs) {

  boolean isExhausted() {
    return plan.isExhaustedBy(used);
  }
}
