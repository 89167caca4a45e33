package dev.threadline.operator.usage;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.run.RunUsage;
import dev.threadline.models.Usage;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The one mapping between a model's {@link Usage} and what the rest of Threadline takes: the {@link
 * RunUsage} a Run records, and the token counts {@link ModelPricing} prices.
 */
public final class RunUsages {
  private RunUsages() {}

  public static RunUsage of(Usage usage) {
    RunUsage result = new RunUsage();
    result.setInputTokens(usage.inputTokens());
    result.setOutputTokens(usage.outputTokens());
    result.setCachedTokens(usage.cachedTokens());
    return result;
  }

  /** What a Run has recorded; zero for nothing recorded. */
  public static Usage toUsage(RunUsage recorded) {
    if (recorded == null) {
      return Usage.ZERO;
    }
    return new Usage(
        Objects.requireNonNullElse(recorded.getInputTokens(), 0L),
        Objects.requireNonNullElse(recorded.getOutputTokens(), 0L),
        Objects.requireNonNullElse(recorded.getCachedTokens(), 0L));
  }

  /** What {@code usage} costs on {@code model}, in USD. */
  public static BigDecimal cost(ModelPricing pricing, String model, Usage usage) {
    return pricing.cost(model, usage.inputTokens(), usage.outputTokens(), usage.cachedTokens());
  }
}
