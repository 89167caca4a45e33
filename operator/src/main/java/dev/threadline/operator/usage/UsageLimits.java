package dev.threadline.operator.usage;

import dev.threadline.core.usage.Costs;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlan;
import java.math.BigDecimal;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a tenant may still spend: the plan's allowance against the month's ledger. Asked before
 * a run starts (runs created by schedules reach the operator without passing the api-server's
 * 402) and while a computer run works (its cost so far counts as spent).
 */
public final class UsageLimits {
  private static final Logger LOG = LoggerFactory.getLogger(UsageLimits.class);
  /** The contract's wording, also carried by {@code response.failed}. */
  public static final String EXHAUSTED_MESSAGE = "monthly usage allowance exhausted";

  private final TenantPlans plans;
  private final UsageLedgers ledgers;
  private final Clock clock;

  public UsageLimits(TenantPlans plans, UsageLedgers ledgers, Clock clock) {
    this.plans = plans;
    this.ledgers = ledgers;
    this.clock = clock;
  }

  /** Whether the namespace's allowance is used up by its finished runs. */
  public boolean exhausted(String namespace) {
    return exhaustedWith(namespace, BigDecimal.ZERO);
  }

  /** Whether the finished runs plus {@code inFlight} USD (a running run's cost so far) use it up. */
  public boolean exhaustedWith(String namespace, BigDecimal inFlight) {
    UsagePlan plan = plans.planOf(namespace);
    BigDecimal used = ledgers.get(namespace, UsagePeriod.of(clock.instant()))
        .map(ledger -> ledger.getStatus() == null ? BigDecimal.ZERO : Costs.of(ledger.getStatus().getTotalCost()))
        .orElse(BigDecimal.ZERO);
    boolean exhausted = plan.isExhaustedBy(used.add(inFlight));
    if (exhausted) {
      LOG.info("Namespace {} ({} tier): allowance {} USD used up ({} USD spent, {} USD in flight)", namespace,
          plan.tier(), plan.allowance(), used, inFlight);
    }
    return exhausted;
  }
}
