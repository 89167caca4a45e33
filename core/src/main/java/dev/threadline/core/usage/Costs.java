package dev.threadline.core.usage;

import java.math.BigDecimal;

/**
 * Adds costs the one way every total uses (runs into a thread, a schedule, a user's month): each
 * cost is taken at its shortest decimal form ({@link BigDecimal#valueOf(double)}), summed exactly,
 * and turned into a double once. So a total never drifts from the sum of the costs it shows.
 */
public final class Costs {
  private Costs() {}

  public static BigDecimal of(Double cost) {
    return cost == null ? BigDecimal.ZERO : BigDecimal.valueOf(cost);
  }

  public static double sum(double total, double cost) {
    return BigDecimal.valueOf(total).add(BigDecimal.valueOf(cost)).doubleValue();
  }
}
