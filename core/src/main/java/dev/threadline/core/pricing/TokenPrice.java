package dev.threadline.core.pricing;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What one model's tokens cost, in USD per million tokens.
 *
 * @param input per million prompt tokens not served from the cache
 * @param output per million tokens the model writes
 * @param cached per million prompt tokens read from the provider's prompt cache
 */
public record TokenPrice(BigDecimal input, BigDecimal output, BigDecimal cached) {

  public TokenPrice {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(cached, "cached");
    if (input.signum() < 0 || output.signum() < 0 || cached.signum() < 0) {
      throw new IllegalArgumentException("token prices must not be negative");
    }
  }
}
