package dev.threadline.operator.computer;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.core.usage.Costs;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.usage.RunUsages;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a user's runs have spent that the month's ledger may not hold yet, by Run uid: a running
 * computer run's latest cumulative usage report, priced, and a finished run's cost until it is
 * marked as counted. Without the running ones, runs working side by side could each stay under the
 * allowance while together they go well beyond it.
 */
public final class UncountedSpend {
  private UncountedSpend() {}

  /** USD by Run uid, for the runs that spent something (pass one namespace's runs). */
  public static Map<String, BigDecimal> byRun(Stream<Run> runs, ModelPricing pricing) {
    Map<String, BigDecimal> spend = new HashMap<>();
    runs.forEach(run -> {
      BigDecimal cost = of(run.getStatus(), pricing);
      if (cost.signum() > 0) {
        spend.put(run.getMetadata().getUid(), cost);
      }
    });
    return spend;
  }

  private static BigDecimal of(RunStatus status, ModelPricing pricing) {
    if (status == null || status.getPhase() == null) {
      return BigDecimal.ZERO;
    }
    if (RunPhase.fromValue(status.getPhase()).isTerminal()) {
      return Boolean.TRUE.equals(status.getUsageRecorded())
          ? BigDecimal.ZERO
          : Costs.of(status.getCost());
    }
    return status.getModel() == null
        ? BigDecimal.ZERO
        : RunUsages.cost(pricing, status.getModel(), ComputerStatus.lastUsage(status));
  }
}
