package dev.threadline.operator.usage;

import dev.threadline.core.usage.LedgerBook;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.usage.UsageEntry;
import dev.threadline.crds.usage.UsageLedger;
import dev.threadline.crds.usage.UsageLedgerSpec;
import dev.threadline.crds.usage.UsageLedgerStatus;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Reads and writes the month's {@link UsageLedger} of a namespace. Writes are status updates that
 * carry the ledger's resourceVersion: when another writer got there first the API answers 409, the
 * ledger is read again and the change re-applied to what is really there. Since adding a run is a
 * no-op once its entry is in, a retried write never counts a run twice.
 */
public final class UsageLedgers {
  /** Many runs of one user may end at once; each conflict costs one GET. */
  static final int ATTEMPTS = 100;

  private final KubernetesClient client;

  public UsageLedgers(KubernetesClient client) {
    this.client = client;
  }

  public Optional<UsageLedger> get(String namespace, UsagePeriod period) {
    return Optional.ofNullable(
        client
            .resources(UsageLedger.class)
            .inNamespace(namespace)
            .withName(period.ledgerName())
            .get());
  }

  /**
   * Counts a run in the month's ledger (once), dropping settled entries on the way.
   *
   * @param settled given a pending run's uid and name: whether its counting is settled
   * @return the ledger as written (or as found, when the run was counted already)
   */
  public UsageLedger add(
      String namespace,
      String userId,
      UsagePeriod period,
      String runUid,
      UsageEntry entry,
      BiPredicate<String, String> settled) {
    StatusWriteLoop.Outcome<UsageLedger> outcome =
        StatusWriteLoop.write(
            client,
            getOrCreate(namespace, userId, period),
            ATTEMPTS,
            code -> code == 409,
            () -> getOrCreate(namespace, userId, period),
            next -> {
              UsageLedgerStatus status =
                  next.getStatus() == null ? new UsageLedgerStatus() : next.getStatus();
              next.setStatus(status);
              boolean added = LedgerBook.add(status, runUid, entry);
              int forgotten =
                  LedgerBook.forgetSettled(
                      status, (uid, run) -> !uid.equals(runUid) && settled.test(uid, run));
              return added || forgotten != 0;
            });
    return switch (outcome) {
      case StatusWriteLoop.Written<UsageLedger>(UsageLedger written, UsageLedger base) -> written;
      case StatusWriteLoop.Unchanged<UsageLedger>(UsageLedger current) -> current;
      case StatusWriteLoop.Gone<UsageLedger> gone ->
          throw new IllegalStateException("getOrCreate never finds the ledger gone");
    };
  }

  private UsageLedger getOrCreate(String namespace, String userId, UsagePeriod period) {
    Optional<UsageLedger> existing = get(namespace, period);
    if (existing.isPresent()) {
      return existing.get();
    }
    UsageLedger ledger = new UsageLedger();
    ledger.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(namespace)
            .withName(period.ledgerName())
            .addToLabels(Labels.MANAGED_BY, Labels.MANAGER)
            .build());
    UsageLedgerSpec spec = new UsageLedgerSpec();
    spec.setPeriod(period.value());
    spec.setUserId(userId);
    ledger.setSpec(spec);
    try {
      return client.resource(ledger).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // Another writer created it first.
      return get(namespace, period).orElseThrow(() -> e);
    }
  }
}
