package dev.threadline.operator.usage;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.crds.usage.UsageEntry;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import dev.threadline.operator.metrics.OperatorMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts every finished Run (direct or computer, from the API or a schedule) in its user's {@code
 * UsageLedger} for the month it ended in (UTC), exactly once: first the ledger (which ignores a run
 * it holds already), then {@code status.usageRecorded} on the Run. A Run that ends while the
 * operator is down, or an operator stopped between the two writes, is picked up on the next start,
 * when every Run is reconciled.
 *
 * <p>A Run deleted before it is counted stays (finalizer {@value #FINALIZER}) until it is: one
 * still working is ended first ({@link UnfinishedRuns}), with what it spent so far. One deleted
 * before its route was written may be getting its direct answer at that moment (the route and the
 * answer are written together, when the model has answered): it stays until that answer is written
 * — then it is counted — or until the longest a direct answer can take has passed since its
 * deletion.
 *
 * <p>Its own controller, so that it sees status changes (the run controller reacts to spec changes
 * only) and the run controller stays about running runs.
 */
@ControllerConfiguration(
    name = "run-usage",
    generationAwareEventProcessing = false,
    finalizerName = RunUsageRecorder.FINALIZER)
public class RunUsageRecorder implements Reconciler<Run>, Cleaner<Run> {
  public static final String FINALIZER = ThreadRuns.USAGE_FINALIZER;
  private static final Logger LOG = LoggerFactory.getLogger(RunUsageRecorder.class);
  private static final int ATTEMPTS = 10;

  private final KubernetesClient client;
  private final UsageLedgers ledgers;
  private final TenantPlans tenants;
  private final Clock clock;
  private final OperatorMetrics metrics;
  private final UnfinishedRuns unfinished;
  private final Duration directAnswerLimit;

  /**
   * Uids of Runs marked counted here whose mark the cache has not shown yet: another controller's
   * write of the run (its event older than the mark) would otherwise cost a fresh read to find the
   * run counted. Each leaves when the cache shows the mark or the Run goes; a restart starts empty
   * and reads afresh.
   */
  private final Set<String> marked = ConcurrentHashMap.newKeySet();

  /**
   * @param directAnswerLimit the longest a direct answer can take (its model calls' timeouts)
   */
  public RunUsageRecorder(
      KubernetesClient client,
      UsageLedgers ledgers,
      TenantPlans tenants,
      Clock clock,
      OperatorMetrics metrics,
      UnfinishedRuns unfinished,
      Duration directAnswerLimit) {
    this.unfinished = unfinished;
    this.directAnswerLimit = directAnswerLimit;
    this.client = client;
    this.ledgers = ledgers;
    this.tenants = tenants;
    this.clock = clock;
    this.metrics = metrics;
  }

  @Override
  public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
    count(run, context);
    return UpdateControl.noUpdate();
  }

  /**
   * A deleted Run goes once it is counted; one still working is ended first, and asked about again
   * when it changes (or after the wait its work needs to stop). One that never spent anything goes
   * at once.
   */
  @Override
  public DeleteControl cleanup(Run run, Context<Run> context) {
    if (!RunPhase.of(run).isTerminal()) {
      Optional<Duration> wait = unfinished.endDeleted(run);
      if (wait.isPresent()) {
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(wait.get());
      }
      run =
          client
              .resources(Run.class)
              .inNamespace(run.getMetadata().getNamespace())
              .withName(run.getMetadata().getName())
              .get();
      if (run == null) {
        return DeleteControl.defaultDelete();
      }
      Optional<Duration> answering = directAnswerMayLand(run);
      if (answering.isPresent()) {
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(answering.get());
      }
    }
    count(run, context);
    marked.remove(run.getMetadata().getUid());
    return DeleteControl.defaultDelete();
  }

  /**
   * How long a deleted Run without a route may still get its direct answer: the reconcile that
   * routes it may have begun before the deletion, and its one status write (route, answer, usage)
   * comes when the model has answered — an event that asks here again. Empty once the Run has a
   * route or has ended, or the longest answer has had its time.
   */
  private Optional<Duration> directAnswerMayLand(Run run) {
    if (RunPhase.of(run).isTerminal()
        || (run.getStatus() != null && run.getStatus().getRoute() != null)) {
      return Optional.empty();
    }
    Optional<Instant> deleted = Timestamps.parse(run.getMetadata().getDeletionTimestamp());
    if (deleted.isEmpty()) {
      return Optional.empty();
    }
    Duration left = Duration.between(clock.instant(), deleted.get().plus(directAnswerLimit));
    if (left.isNegative() || left.isZero()) {
      return Optional.empty();
    }
    LOG.debug(
        "deleted before its route was written: waiting up to {} s for its answer",
        left.toSeconds());
    return Optional.of(left);
  }

  private void count(Run run, Context<Run> context) {
    if (!RunPhase.of(run).isTerminal()) {
      return;
    }
    String uid = run.getMetadata().getUid();
    if (Boolean.TRUE.equals(run.getStatus().getUsageRecorded())) {
      marked.remove(uid); // the cache has caught up with the mark
      return;
    }
    if (marked.contains(uid)) {
      return; // marked here, by a write the cache has not delivered yet
    }
    String namespace = run.getMetadata().getNamespace();
    Optional<Run> current = uncounted(run);
    if (current.isEmpty()) {
      return;
    }
    RunStatus status = run.getStatus();
    UsagePeriod period =
        UsagePeriod.of(Timestamps.parse(status.getCompletedAt()).orElseGet(clock::instant));
    UsageEntry entry = entryOf(run);
    ledgers.add(
        namespace,
        tenants.userOf(namespace),
        period,
        run.getMetadata().getUid(),
        entry,
        (pendingUid, name) -> isSettled(context, namespace, pendingUid, name));
    markRecorded(current.get());
    marked.add(uid);
    // Here, once per run: the mark above is what keeps a finished run from being seen again.
    metrics.runFinished(run);
    LOG.debug("Run counted in {}: {} USD", period.ledgerName(), entry.getCost());
  }

  static UsageEntry entryOf(Run run) {
    return new UsageEntry(
        run.getMetadata().getName(),
        TokenCounts.zero().plus(run.getStatus().getUsage()),
        Objects.requireNonNullElse(run.getStatus().getCost(), 0.0));
  }

  /**
   * The Run as the API has it now, when it is still to be counted. The cached copy may predate our
   * own {@code usageRecorded} write (another writer's event for the run can arrive first); by then
   * the ledger may have forgotten the run as settled, and counting it from the stale copy would
   * count it twice. Reconciles of one Run never overlap, so the fresh read sees every earlier mark.
   * (java-operator-sdk's cache of its own writes would not do: without parsing resource versions it
   * drops the written copy at the next event of the Run, that other writer's older one.) The mark
   * is then written from this copy, newer than the cached one another controller's write outdated.
   */
  private Optional<Run> uncounted(Run run) {
    Run current =
        client
            .resources(Run.class)
            .inNamespace(run.getMetadata().getNamespace())
            .withName(run.getMetadata().getName())
            .get();
    return current != null
            && run.getMetadata().getUid().equals(current.getMetadata().getUid())
            && current.getStatus() != null
            && !Boolean.TRUE.equals(current.getStatus().getUsageRecorded())
        ? Optional.of(current)
        : Optional.empty();
  }

  /** A pending run is settled once its Run says it was counted, or the Run is gone. */
  private static boolean isSettled(
      Context<Run> context, String namespace, String uid, String name) {
    Optional<Run> cached = context.getPrimaryCache().get(new ResourceID(name, namespace));
    return cached.isEmpty()
        || !uid.equals(cached.get().getMetadata().getUid())
        || (cached.get().getStatus() != null
            && Boolean.TRUE.equals(cached.get().getStatus().getUsageRecorded()));
  }

  private void markRecorded(Run run) {
    // Every outcome is fine: written, marked already, or deleted (nothing to mark, and its ledger
    // entry is settled).
    StatusWriteLoop.write(
        client,
        run,
        ATTEMPTS,
        code -> code == 409,
        () -> {
          Run latest =
              client
                  .resources(Run.class)
                  .inNamespace(run.getMetadata().getNamespace())
                  .withName(run.getMetadata().getName())
                  .get();
          return latest == null || !run.getMetadata().getUid().equals(latest.getMetadata().getUid())
              ? null
              : latest;
        },
        next -> {
          if (next.getStatus() == null
              || Boolean.TRUE.equals(next.getStatus().getUsageRecorded())) {
            return false;
          }
          next.getStatus().setUsageRecorded(true);
          return true;
        });
  }
}
