package dev.threadline.core.usage;

import java.math.BigDecimal;

/**
 * What a user may spend per month: the tier's name and its allowance in USD.
 *
 * @param tier e.g. {@code free}
 * @param allowance USD per calendar month (UTC)
 */
public record UsagePlan(String tier, BigDecimal allowance) {
  /** Whether {@code used} USD leaves nothing to spend: the allowance is used up when reached. */
  public boolean isExhaustedBy(BigDecimal used) {
    return used.compareTo(allowance) >= 0;
  }

  /** What is left, never below zero. */
  public BigDecimal remaining(BigDecimal used) {
    return allowance.subtract(used).max(BigDecimal.ZERO);
  }
}
