package dev.threadline.operator.usage;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.models.Usage;
import java.math.BigDecimal;

/**
 * The one mapping between a model's {@link Usage} and what the rest of Threadline takes: the {@link
 * TokenCounts} a Run records, and the token counts {@link ModelPricing} prices.
 */
public final class RunUsages {
  private RunUsages() {}

  public static TokenCounts of(Usage usage) {
    return new TokenCounts(usage.inputTokens(), usage.outputTokens(), usage.cachedTokens());
  }

  /** What a Run has recorded; zero for nothing recorded. */
  public static Usage toUsage(TokenCounts recorded) {
    if (recorded == null) {
      return Usage.ZERO;
    }
    return new Usage(recorded.input(), recorded.output(), recorded.cached());
  }

  /** What {@code usage} costs on {@code model}, in USD. */
  public static BigDecimal cost(ModelPricing pricing, String model, Usage usage) {
    return pricing.cost(model, usage.inputTokens(), usage.outputTokens(), usage.cachedTokens());
  }
}
