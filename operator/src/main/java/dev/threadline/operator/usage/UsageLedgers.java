package dev.threadline.operator.usage;

import dev.threadline.core.batching.GroupCommit;
import dev.threadline.core.batching.KeyedGroupCommits;
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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Reads and writes the month's {@link UsageLedger} of a namespace. Writes are status updates that
 * carry the ledger's resourceVersion: when another writer got there first the API answers 409, the
 * ledger is read again and the change re-applied to what is really there. Since adding a run is a
 * no-op once its entry is in, a retried write never counts a run twice.
 */
public final class UsageLedgers {
  /**
   * Runs ending at once are written together (see {@link #add}); conflicts come from other
   * processes (another operator replica, a hand edit), each costing one GET.
   */
  static final int ATTEMPTS = 100;

  /** The most runs one ledger write counts; the rest wait for the next write. */
  private static final int MAX_BATCH = 200;

  private final KubernetesClient client;

  /** Runs waiting to be counted, per namespace and ledger (held while runs wait). */
  private final KeyedGroupCommits<String, Addition, UsageLedger> batches =
      new KeyedGroupCommits<>(MAX_BATCH);

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
   * Counts a run in the month's ledger (once), dropping settled entries on the way. Runs of one
   * ledger that end together are written together: while one write of the ledger is in flight the
   * others wait, and the next caller writes all of them in one status update ({@link GroupCommit}),
   * so N runs ending at once make a few writes, not N writes conflicting with each other.
   *
   * @param settled given a pending run's uid and name: whether its counting is settled (the same
   *     test for every caller: the batch is written with one caller's)
   * @return the ledger as written (or as found, when the run was counted already)
   */
  public UsageLedger add(
      String namespace,
      String userId,
      UsagePeriod period,
      String runUid,
      UsageEntry entry,
      BiPredicate<String, String> settled) {
    return batches.submit(
        namespace + "/" + period.ledgerName(),
        new Addition(runUid, entry),
        batch -> write(namespace, userId, period, batch, settled));
  }

  /** A run to count. */
  private record Addition(String runUid, UsageEntry entry) {}

  private void write(
      String namespace,
      String userId,
      UsagePeriod period,
      List<GroupCommit.Request<Addition, UsageLedger>> batch,
      BiPredicate<String, String> settled) {
    Set<String> adding = new HashSet<>();
    batch.forEach(request -> adding.add(request.input().runUid()));
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
              boolean added = false;
              for (GroupCommit.Request<Addition, UsageLedger> request : batch) {
                added |= LedgerBook.add(status, request.input().runUid(), request.input().entry());
              }
              int forgotten =
                  LedgerBook.forgetSettled(
                      status, (uid, run) -> !adding.contains(uid) && settled.test(uid, run));
              return added || forgotten != 0;
            });
    UsageLedger ledger =
        switch (outcome) {
          case StatusWriteLoop.Written<UsageLedger>(UsageLedger written, UsageLedger base) ->
              written;
          case StatusWriteLoop.Unchanged<UsageLedger>(UsageLedger current) -> current;
          case StatusWriteLoop.Gone<UsageLedger> gone ->
              throw new IllegalStateException("getOrCreate never finds the ledger gone");
        };
    batch.forEach(request -> request.succeed(ledger));
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
