package dev.threadline.operator.worker;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.run.Run;
import dev.threadline.models.Usage;
import dev.threadline.operator.computer.UncountedSpend;
import dev.threadline.operator.usage.RunUsages;
import dev.threadline.operator.usage.UsageLimits;
import java.math.BigDecimal;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The month's ledger plus what the namespace's runs spent that it may not hold yet, this run's
 * latest usage priced in place of its cached status (as the agent-Pod path checks each usage
 * report).
 */
public final class LedgerAllowance implements Allowance {
  private final UsageLimits limits;
  private final ModelPricing pricing;

  public LedgerAllowance(UsageLimits limits, ModelPricing pricing) {
    this.limits = limits;
    this.pricing = pricing;
  }

  @Override
  public boolean exhausted(Run run, Usage total, Stream<Run> namespaceRuns) {
    String model = run.getStatus().getModel();
    Map<String, BigDecimal> uncounted = UncountedSpend.byRun(namespaceRuns, pricing);
    uncounted.put(
        run.getMetadata().getUid(),
        model == null ? BigDecimal.ZERO : RunUsages.cost(pricing, model, total));
    return limits.exhausted(run.getMetadata().getNamespace(), uncounted);
  }
}
