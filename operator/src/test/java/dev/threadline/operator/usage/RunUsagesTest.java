package dev.threadline.operator.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.Usage;
import org.junit.jupiter.api.Test;

class RunUsagesTest {
  private static final ModelPricing PRICING = ModelPricing.parse("gpt-4.1-mini=0.40/1.60/0.10");

  @Test
  void aModelsUsageIsPricedWithItsCachedTokensAtTheCachedPrice() {
    // 800k uncached input at 0.40, 200k cached at 0.10, 100k output at 1.60 per million.
    Usage usage = new Usage(1_000_000, 100_000, 200_000);

    assertThat(RunUsages.cost(PRICING, "gpt-4.1-mini", usage)).isEqualByComparingTo("0.50");
  }

  @Test
  void theScriptedModelCoreKeepsFreeIsTheOneTheModelsModuleRuns() {
    assertThat(ModelPricing.SCRIPTED).isEqualTo(ModelSettings.SCRIPTED);
    assertThat(RunUsages.cost(PRICING, ModelSettings.SCRIPTED, new Usage(10, 10, 0)))
        .isEqualByComparingTo("0");
  }

  @Test
  void aRecordedUsageRoundTrips() {
    TokenCounts recorded = RunUsages.of(new Usage(30, 20, 10));

    assertThat(RunUsages.toUsage(recorded)).isEqualTo(new Usage(30, 20, 10));
    assertThat(RunUsages.toUsage(null)).isEqualTo(Usage.ZERO);
  }
}
