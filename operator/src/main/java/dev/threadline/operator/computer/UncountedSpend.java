package dev.threadline.operator.computer;

import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.core.usage.Costs;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.usage.RunUsages;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a user's runs have spent that the month's ledger may not hold yet, by Run uid: a running
 * computer run's latest cumulative usage report, priced, and a finished run's cost until it is
 * marked as counted. Without the running ones, runs working side by side could each stay under the
 * allowance while together they go well beyond it.
 */
public final class UncountedSpend {
  /**
   * The name of an informer index of the runs that may hold uncounted spend, by namespace: the
   * allowance reads those, not every run the namespace ever had (which grows with every run and
   * made each direct run's check scan them all).
   */
  public static final String INDEX = "uncounted-spend-by-namespace";

  private UncountedSpend() {}

  /**
   * The run's key in {@link #INDEX}: its namespace while it may hold spend the ledger lacks
   * (running with a model, or finished and not yet counted), none after.
   */
  public static List<String> indexKeys(Run run) {
    RunStatus status = run.getStatus();
    if (status == null || status.getPhase() == null) {
      return List.of();
    }
    boolean mayHoldSpend =
        RunPhase.fromValue(status.getPhase()).isTerminal()
            ? !Boolean.TRUE.equals(status.getUsageRecorded())
            : status.getModel() != null;
    return mayHoldSpend ? List.of(run.getMetadata().getNamespace()) : List.of();
  }

  /**
   * USD by Run uid, for the runs that spent something (pass one namespace's runs, or its entries in
   * {@link #INDEX}).
   */
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
