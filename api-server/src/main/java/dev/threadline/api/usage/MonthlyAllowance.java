package dev.threadline.api.usage;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.Usage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Refuses a new execution with 402 once the user's finished runs used the monthly allowance. */
final class MonthlyAllowance implements ExecutionAllowance {
  private static final Logger log = LoggerFactory.getLogger(MonthlyAllowance.class);

  private final UsageAccounts accounts;

  MonthlyAllowance(UsageAccounts accounts) {
    this.accounts = accounts;
  }

  @Override
  public void requireAllowance(Tenant tenant) {
    UsageStanding standing = accounts.standing(tenant);
    if (standing.isExhausted()) {
      log.info(
          "User {} ({} tier) refused: {} of {} USD used in {}",
          tenant.userId(),
          standing.plan().tier(),
          standing.used(),
          standing.plan().allowance(),
          standing.period().value());
      throw ApiException.usageExhausted(
          new Usage(standing.plan().tier(), standing.plan().allowance(), standing.used()));
    }
  }
}
