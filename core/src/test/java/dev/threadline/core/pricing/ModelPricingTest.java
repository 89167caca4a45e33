package dev.threadline.core.pricing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelPricingTest {
  /** Token counts: input (cached ones included), output, cached. */
  private record Usage(long input, long output, long cached) {}

  private static final ModelPricing PRICING =
      ModelPricing.parse("gpt-4.1-mini=0.40/1.60/0.10, claude-sonnet-4-5=3/15/0.30");

  @Test
  void parsesPricesPerMillionTokens() {
    assertThat(PRICING.prices()).containsOnlyKeys("gpt-4.1-mini", "claude-sonnet-4-5");
    assertThat(PRICING.price("claude-sonnet-4-5"))
        .contains(
            new TokenPrice(new BigDecimal("3"), new BigDecimal("15"), new BigDecimal("0.30")));
  }

  @Test
  void costsInputOutputAndCachedTokensAtTheirOwnPrices() {
    // 1M prompt tokens of which 200k cached, 100k output:
    // 800k x 0.40 + 200k x 0.10 + 100k x 1.60 per million = 0.32 + 0.02 + 0.16
    Usage usage = new Usage(1_000_000, 100_000, 200_000);

    assertThat(PRICING.cost("gpt-4.1-mini", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("0.50");
    assertThat(PRICING.cost("claude-sonnet-4-5", 2_000, 1_000, 0)).isEqualByComparingTo("0.021");
  }

  @Test
  void costIsExactForSmallCalls() {
    assertThat(PRICING.cost("gpt-4.1-mini", 1, 1, 0)).isEqualTo(new BigDecimal("0.000002"));
    assertThat(PRICING.cost("claude-sonnet-4-5", 0, 1_000_000, 0).toString()).isEqualTo("15");
  }

  @Test
  void withoutACachedPriceCachedTokensCostTheInputPrice() {
    ModelPricing pricing = ModelPricing.parse("local-llm=1/2");

    assertThat(pricing.cost("local-llm", 1_000_000, 0, 500_000)).isEqualByComparingTo("1");
  }

  @Test
  void theDefaultPriceCoversEveryModelWithoutItsOwn() {
    ModelPricing pricing = ModelPricing.parse("gpt-4.1-mini=0.40/1.60, *=1/2");
    Usage usage = new Usage(1_000_000, 1_000_000, 0);

    assertThat(pricing.cost("gpt-4.1-mini", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("2.00");
    assertThat(pricing.cost("some-new-model", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("3");
    assertThat(pricing.isPriced("some-new-model")).isTrue();
    assertThat(pricing.cost("scripted", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("0");
  }

  @Test
  void withoutADefaultPriceOnlyListedAndScriptedModelsArePriced() {
    assertThat(PRICING.isPriced("gpt-4.1-mini-2025-04-14")).isTrue();
    assertThat(PRICING.isPriced("scripted")).isTrue();
    assertThat(PRICING.isPriced("gpt-5")).isFalse();
    assertThat(ModelPricing.none().isPriced("gpt-4.1-mini")).isFalse();
    assertThat(ModelPricing.none().isPriced("scripted", "gpt-4.1-mini")).isTrue();
    assertThat(ModelPricing.none().isPriced(null, "anything")).isTrue();
    assertThat(ModelPricing.none().isPriced("openai", "gpt-4.1-mini")).isFalse();
    assertThat(PRICING.isPriced("openai", "gpt-4.1-mini")).isTrue();
  }

  @Test
  void unknownAndScriptedModelsAreFree() {
    Usage usage = new Usage(1_000_000, 1_000_000, 0);

    assertThat(PRICING.cost("gpt-5", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("0");
    assertThat(
            ModelPricing.parse("scripted=1/1")
                .cost("scripted", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("0");
    assertThat(
            ModelPricing.parse(null)
                .cost("gpt-4.1-mini", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("0");
    assertThat(ModelPricing.parse("  ").prices()).isEmpty();
  }

  @Test
  void datedModelNamesCostTheBaseModelsPrice() {
    Usage usage = new Usage(0, 1_000_000, 0);

    assertThat(
            PRICING.cost(
                "claude-sonnet-4-5-20250929", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("15");
    assertThat(
            PRICING.cost("gpt-4.1-mini-2025-04-14", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("1.60");
    // A different model that merely shares a prefix is not priced like it.
    assertThat(PRICING.cost("gpt-4.1-mini-high", usage.input(), usage.output(), usage.cached()))
        .isEqualByComparingTo("0");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "gpt=1/2,claude                 | model price entry 2 'claude' must look like"
            + " model=input/output[/cached]",
        "gpt=1                          | model price entry 1 'gpt=1' needs input/output or"
            + " input/output/cached prices",
        "gpt=1/2/3/4                    | model price entry 1 'gpt=1/2/3/4' needs input/output",
        "gpt=1/abc                      | model price entry 1 'gpt=1/abc': the output price 'abc'"
            + " is not a number",
        "gpt=1/2/-1                     | model price entry 1 'gpt=1/2/-1': the cached price must"
            + " not be negative",
        "=1/2                           | model price entry 1 '=1/2' has no valid model name",
        "a=1/2,b=1/2,a=3/4              | model price entry 3 'a=3/4' prices a a second time"
      })
  void malformedSpecsNameTheEntry(String spec, String message) {
    assertThatThrownBy(() -> ModelPricing.parse(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }
}
