package dev.threadline.api.usage;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.core.usage.Costs;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.crds.usage.UsageLedgerStatus;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a user's standing: the plan from the tenant namespace's annotations (informer cache) and
 * the month's figures from the {@code UsageLedger} the operator keeps. The ledger is read from the
 * API, not a cache, so that a run that just ended counts at once on every replica.
 */
final class UsageAccounts {
  private final KubernetesClient client;
  private final ManagedInformer<Namespace> namespaces;
  private final UsagePlans plans;
  private final Clock clock;

  UsageAccounts(
      KubernetesClient client,
      ManagedInformer<Namespace> namespaces,
      UsagePlans plans,
      Clock clock) {
    this.client = client;
    this.namespaces = namespaces;
    this.plans = plans;
    this.clock = clock;
  }

  UsageStanding standing(Tenant tenant) {
    UsagePeriod period = UsagePeriod.of(clock.instant());
    Map<String, String> annotations =
        namespaces
            .get(null, tenant.namespace())
            .map(namespace -> namespace.getMetadata().getAnnotations())
            .orElse(Map.of());
    UsageLedgerStatus figures =
        Optional.ofNullable(
                client
                    .resources(UsageLedger.class)
                    .inNamespace(tenant.namespace())
                    .withName(period.ledgerName())
                    .get())
            .map(UsageLedger::getStatus)
            .orElseGet(UsageLedgerStatus::new);
    return new UsageStanding(
        plans.planFor(annotations),
        period,
        Costs.of(figures.getTotalCost()),
        figures.tokens().input(),
        figures.tokens().output(),
        figures.tokens().cached(),
        value(figures.getRuns()));
  }

  private static long value(Long value) {
    return Objects.requireNonNullElse(value, 0L);
  }
}
