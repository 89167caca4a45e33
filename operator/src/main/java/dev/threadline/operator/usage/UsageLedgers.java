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
import dev.threadline.operator.kubernetes.OwnWrites;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Reads and writes the month's {@link UsageLedger} of a namespace. Writes are status updates that
 * carry the ledger's resourceVersion: when another writer got there first the API answers 409, the
 * ledger is read again and the change re-applied to what is really there. Since adding a run is a
 * no-op once its entry is in, a retried write never counts a run twice.
 *
 * <p>Ledgers are also held by an informer ({@link #cached}), with this process's own writes in
 * front of it until the informer has caught up with them ({@link OwnWrites}, which compares
 * resource versions for equality only): a ledger this process wrote is never read older than that
 * write. A write starts from that copy; one older than what the API holds meets a 409 and is read
 * again from the API.
 */
public final class UsageLedgers implements AutoCloseable {
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

  /** By namespace ({@link #ALL} when one informer watches every namespace). */
  private final Map<String, SharedIndexInformer<UsageLedger>> informers = new HashMap<>();

  /** This process's latest write of each ledger the informer has not shown yet. */
  private final OwnWrites<UsageLedger> written = new OwnWrites<>();

  private static final String ALL = "";

  /** Ledgers of every namespace. */
  public UsageLedgers(KubernetesClient client) {
    this(client, Set.of());
  }

  /**
   * @param namespaces the namespaces whose ledgers are cached; empty for all
   */
  public UsageLedgers(KubernetesClient client, Set<String> namespaces) {
    this.client = client;
    if (namespaces.isEmpty()) {
      informers.put(
          ALL,
          client
              .resources(UsageLedger.class)
              .inAnyNamespace()
              .inform(written.releasedOnInformerEvents(UsageLedger.class)));
    } else {
      for (String namespace : namespaces) {
        informers.put(
            namespace,
            client
                .resources(UsageLedger.class)
                .inNamespace(namespace)
                .inform(written.releasedOnInformerEvents(UsageLedger.class)));
      }
    }
  }

  /**
   * The month's ledger as the informer holds it, or as this process last wrote it when the informer
   * has not delivered that write yet. Not older than any ledger write of this process.
   */
  public Optional<UsageLedger> cached(String namespace, UsagePeriod period) {
    SharedIndexInformer<UsageLedger> informer = informer(namespace);
    if (informer == null) {
      // A namespace outside the watched ones: no cache to ask.
      return get(namespace, period);
    }
    String key = Cache.namespaceKeyFunc(namespace, period.ledgerName());
    return Optional.ofNullable(written.newest(key, informer.getIndexer().getByKey(key)));
  }

  private SharedIndexInformer<UsageLedger> informer(String namespace) {
    return informers.getOrDefault(ALL, informers.get(namespace));
  }

  /** The ledger as the API holds it now. */
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
            getOrCreate(namespace, userId, period, cached(namespace, period)),
            ATTEMPTS,
            code -> code == 409,
            () -> getOrCreate(namespace, userId, period, get(namespace, period)),
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
          case StatusWriteLoop.Written<UsageLedger>(UsageLedger done, UsageLedger base) ->
              remember(base, done);
          case StatusWriteLoop.Unchanged<UsageLedger>(UsageLedger current) -> current;
          case StatusWriteLoop.Gone<UsageLedger> gone ->
              throw new IllegalStateException("getOrCreate never finds the ledger gone");
        };
    batch.forEach(request -> request.succeed(ledger));
  }

  private UsageLedger getOrCreate(
      String namespace, String userId, UsagePeriod period, Optional<UsageLedger> existing) {
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
      return remember(null, client.resource(ledger).create());
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // Another writer created it first.
      return get(namespace, period).orElseThrow(() -> e);
    }
  }

  private UsageLedger remember(UsageLedger base, UsageLedger ledger) {
    SharedIndexInformer<UsageLedger> informer = informer(ledger.getMetadata().getNamespace());
    if (informer != null) {
      written.wrote(
          base, ledger, informer.getIndexer().getByKey(Cache.metaNamespaceKeyFunc(ledger)));
    }
    return ledger;
  }

  @Override
  public void close() {
    informers.values().forEach(SharedIndexInformer::close);
  }
}
