package dev.threadline.operator.usage;

import dev.threadline.core.usage.Costs;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlan;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.crds.usage.UsageLedgerStatus;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a tenant may still spend: the plan's allowance against the month's ledger and what its
 * runs spent beyond it. Asked before a run starts (runs created by schedules reach the operator
 * without passing the api-server's 402) and while a computer run works (every running run's cost so
 * far counts as spent).
 */
public final class UsageLimits {
  private static final Logger LOG = LoggerFactory.getLogger(UsageLimits.class);

  /** The contract's wording, also carried by {@code response.failed}. */
  public static final String EXHAUSTED_MESSAGE = "monthly usage allowance exhausted";

  private final TenantPlans plans;
  private final BiFunction<String, UsagePeriod, Optional<UsageLedger>> ledgers;
  private final Clock clock;

  /**
   * @param ledgers reads a namespace's ledger of a month; it must not return a ledger older than
   *     the last write that preceded a {@code usageRecorded} mark the caller's Runs show, or a
   *     counted run would be in neither: {@link UsageLedgers#cached} where the ledgers are written
   *     (the run controller, beside the usage recorder), {@link UsageLedgers#get} elsewhere
   */
  public UsageLimits(
      TenantPlans plans,
      BiFunction<String, UsagePeriod, Optional<UsageLedger>> ledgers,
      Clock clock) {
    this.plans = plans;
    this.ledgers = ledgers;
    this.clock = clock;
  }

  /**
   * Whether the namespace's allowance is used up by the month's ledger plus {@code uncounted}: USD
   * by Run uid that the ledger may not hold yet (running runs so far, finished runs not marked
   * counted). Runs the ledger lists as pending are in its totals already and are not added twice.
   */
  public boolean exhausted(String namespace, Map<String, BigDecimal> uncounted) {
    UsagePlan plan = plans.planOf(namespace);
    Optional<UsageLedgerStatus> ledger =
        ledgers.apply(namespace, UsagePeriod.of(clock.instant())).map(UsageLedger::getStatus);
    BigDecimal used = ledger.map(status -> Costs.of(status.getTotalCost())).orElse(BigDecimal.ZERO);
    Map<String, ?> counted = ledger.map(UsageLedgerStatus::getPending).orElse(Map.of());
    BigDecimal inFlight =
        uncounted.entrySet().stream()
            .filter(run -> !counted.containsKey(run.getKey()))
            .map(Map.Entry::getValue)
            .reduce(BigDecimal.ZERO, BigDecimal::add);
    boolean exhausted = plan.isExhaustedBy(used.add(inFlight));
    if (exhausted) {
      LOG.info(
          "Namespace {} ({} tier): allowance {} USD used up ({} USD counted, {} USD not counted"
              + " yet)",
          namespace,
          plan.tier(),
          plan.allowance(),
          used,
          inFlight);
    }
    return exhausted;
  }
}
