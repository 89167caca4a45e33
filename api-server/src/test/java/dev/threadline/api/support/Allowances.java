package dev.threadline.api.support;

import static org.awaitility.Awaitility.await;

import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.core.usage.UsagePlans;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.crds.usage.UsageLedgerSpec;
import dev.threadline.crds.usage.UsageLedgerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.time.Duration;

/** Usage allowances as the operator leaves them, for tests of the 402. */
public final class Allowances {
  /** The body of the 402 every execution of a user {@link #spend} made gets. */
  public static final String EXHAUSTED =
      "{\"error\":\"Payment Required\",\"message\":\"monthly usage allowance exhausted\","
          + "\"usage\":{\"tier\":\"pro\",\"allowance\":0.5,\"used\":0.5}}";

  private Allowances() {}

  /**
   * Makes {@code user} a pro user whose allowance is lowered to USD 0.50, all of it spent this
   * month (the ledger the operator keeps), and waits until the API server sees it.
   */
  public static void spend(SharedApiServer shared, TestUser user) {
    shared
        .client()
        .namespaces()
        .withName(user.namespace())
        .edit(namespace -> {
          namespace.getMetadata().getAnnotations().put(UsagePlans.TIER_ANNOTATION, "pro");
          namespace.getMetadata().getAnnotations().put(UsagePlans.ALLOWANCE_ANNOTATION, "0.5");
          return namespace;
        });
    UsagePeriod period = UsagePeriod.of(Clock.systemUTC().instant());
    UsageLedger ledger = new UsageLedger();
    ledger.setMetadata(
        new ObjectMetaBuilder()
            .withName(period.ledgerName())
            .withNamespace(user.namespace())
            .build());
    UsageLedgerSpec spec = new UsageLedgerSpec();
    spec.setPeriod(period.value());
    spec.setUserId(user.userId());
    ledger.setSpec(spec);
    UsageLedger created = shared.client().resource(ledger).create();
    UsageLedgerStatus status = new UsageLedgerStatus();
    status.setTotalCost(0.5);
    status.setTokens(new TokenCounts(1000, 200, 10));
    status.setRuns(3L);
    created.setStatus(status);
    shared.client().resource(created).updateStatus();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() ->
            shared.api().get("/v1/usage", user.key()).json().path("tier").asString().equals("pro"));
  }
}
