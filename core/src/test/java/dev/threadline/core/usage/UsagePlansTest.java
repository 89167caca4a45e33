package dev.threadline.core.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsagePlansTest {
  @Test
  void defaultsAreThreeTiersWithFreeForEveryone() {
    UsagePlans plans = UsagePlans.fromEnvironment(Map.of());
    assertThat(plans.tiers()).containsOnlyKeys("free", "pro", "enterprise");
    assertThat(plans.planFor(null)).isEqualTo(new UsagePlan("free", new BigDecimal("10")));
  }

  @Test
  void namespaceAnnotationsPickTheTierAndMayOverrideTheAllowance() {
    UsagePlans plans = UsagePlans.parse("free=10, pro=100", "free");
    assertThat(plans.planFor(Map.of(UsagePlans.TIER_ANNOTATION, "pro")).allowance())
        .isEqualByComparingTo("100");
    assertThat(
            plans.planFor(
                Map.of(
                    UsagePlans.TIER_ANNOTATION, "pro", UsagePlans.ALLOWANCE_ANNOTATION, "250.5")))
        .isEqualTo(new UsagePlan("pro", new BigDecimal("250.5")));
  }

  @Test
  void anUnknownTierFallsBackToTheDefaultAndATypoNeverLiftsTheLimit() {
    UsagePlans plans = UsagePlans.parse("free=10,pro=100", "free");
    assertThat(plans.planFor(Map.of(UsagePlans.TIER_ANNOTATION, "gold")).tier()).isEqualTo("free");
    assertThat(plans.planFor(Map.of(UsagePlans.ALLOWANCE_ANNOTATION, "lots")).allowance())
        .isEqualByComparingTo("10");
  }

  @Test
  void malformedConfigurationNamesTheVariable() {
    assertThatThrownBy(() -> UsagePlans.parse("free", "free"))
        .hasMessageContaining(UsagePlans.TIERS_VARIABLE);
    assertThatThrownBy(() -> UsagePlans.parse("Free!=10", "free"))
        .hasMessageContaining(UsagePlans.TIERS_VARIABLE);
    assertThatThrownBy(() -> UsagePlans.parse("free=10", "pro"))
        .hasMessageContaining(UsagePlans.DEFAULT_TIER_VARIABLE);
  }

  @Test
  void theAllowanceIsUsedUpWhenReached() {
    UsagePlan plan = new UsagePlan("free", new BigDecimal("10"));
    assertThat(plan.isExhaustedBy(new BigDecimal("9.99"))).isFalse();
    assertThat(plan.isExhaustedBy(new BigDecimal("10.00"))).isTrue();
    assertThat(plan.remaining(new BigDecimal("12"))).isEqualByComparingTo("0");
  }
}
