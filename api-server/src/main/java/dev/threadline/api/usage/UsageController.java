package dev.threadline.api.usage;

import dev.threadline.api.auth.Tenant;
import dev.threadline.crds.common.Timestamps;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The caller's usage this month. */
@RestController
class UsageController {
  private final UsageAccounts accounts;

  UsageController(UsageAccounts accounts) {
    this.accounts = accounts;
  }

  @GetMapping("/v1/usage")
  UsageResponse usage(Tenant tenant) {
    UsageStanding standing = accounts.standing(tenant);
    return new UsageResponse(
        tenant.userId(),
        standing.plan().tier(),
        new UsageResponse.Period(
            Timestamps.format(standing.period().start()),
            Timestamps.format(standing.period().end())),
        standing.plan().allowance(),
        standing.used(),
        standing.plan().remaining(standing.used()),
        standing.inputTokens(),
        standing.outputTokens(),
        standing.cachedTokens(),
        standing.runs());
  }
}
