package dev.threadline.operator.usage;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.core.usage.UsagePeriod;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.usage.TokenCounts;
import dev.threadline.crds.usage.UsageEntry;
import dev.threadline.operator.kubernetes.StatusFieldPatch;
import dev.threadline.operator.metrics.OperatorMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
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
 * <p>The usage half of the finished run's bookkeeping ({@code run/RunBookkeeping}, whose reconciles
 * call it): the mark goes out in that controller's one status write ({@link #mark}).
 */
public class RunUsageRecorder {
  public static final String FINALIZER = ThreadRuns.USAGE_FINALIZER;
  private static final Logger LOG = LoggerFactory.getLogger(RunUsageRecorder.class);

  private final KubernetesClient client;
  private final UsageLedgers ledgers;
  private final TenantPlans tenants;
  private final Clock clock;
  private final OperatorMetrics metrics;
  private final UnfinishedRuns unfinished;
  private final Duration directAnswerLimit;

  /** This process's marks, and whether the cache of Runs can be trusted to show every mark. */
  private final UsageMarks marks = new UsageMarks();

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

  /**
   * A deleted Run goes once it is counted; one still working is ended first, and asked about again
   * when it changes (or after the wait its work needs to stop). One that never spent anything goes
   * at once.
   */
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
    count(run, context).ifPresent(counted -> mark(counted, () -> markOnly(counted)));
    marks.forget(run);
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

  /**
   * Adds a finished Run not counted yet to its ledger.
   *
   * @return the Run to write {@code usageRecorded} on ({@link #mark}), empty when there is nothing
   *     to count
   */
  public Optional<Run> count(Run run, Context<Run> context) {
    if (!RunPhase.of(run).isTerminal()) {
      return Optional.empty();
    }
    marks.shown(run);
    if (UsageMarks.isMarked(run) || marks.awaitingOwnMark(run)) {
      return Optional.empty(); // counted (the cache may not show this process's mark yet)
    }
    String namespace = run.getMetadata().getNamespace();
    Optional<Run> current = uncounted(run, context);
    if (current.isEmpty()) {
      return Optional.empty();
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
    LOG.debug("Run counted in {}: {} USD", period.ledgerName(), entry.getCost());
    return current;
  }

  /**
   * Whether an event of the Run can give a reconcile something to count: finished, not marked, not
   * being marked here. Every event first tells {@link UsageMarks} what the cache shows, so the
   * mark's own event costs no reconcile.
   */
  public boolean isToCountOnUpdate(Run run) {
    marks.shown(run);
    return isToCount(run) && !marks.awaitingOwnMark(run);
  }

  /** Whether this process wrote the Run's mark and the cache does not show it yet. */
  public boolean awaitingOwnMark(Run run) {
    return marks.awaitingOwnMark(run);
  }

  /** The runs a reconcile counts, also at start. */
  public static boolean isToCount(Run run) {
    return RunPhase.of(run).isTerminal() && !UsageMarks.isMarked(run);
  }

  static UsageEntry entryOf(Run run) {
    return new UsageEntry(
        run.getMetadata().getName(),
        TokenCounts.zero().plus(run.getStatus().getUsage()),
        Objects.requireNonNullElse(run.getStatus().getCost(), 0.0));
  }

  /**
   * The Run to count from, unless it is counted already: the cache's copy when {@link UsageMarks}
   * trusts it (taken now, not the reconcile's copy, which may predate that trust), else the Run as
   * the API has it now. Reconciles of one Run never overlap, so either sees every earlier mark.
   */
  private Optional<Run> uncounted(Run run, Context<Run> context) {
    Run current =
        marks.mustReadFresh(run)
            ? client
                .resources(Run.class)
                .inNamespace(run.getMetadata().getNamespace())
                .withName(run.getMetadata().getName())
                .get()
            : context.getPrimaryCache().get(ResourceID.fromResource(run)).orElse(null);
    return current != null
            && run.getMetadata().getUid().equals(current.getMetadata().getUid())
            && current.getStatus() != null
            && !UsageMarks.isMarked(current)
            && !marks.awaitingOwnMark(current)
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

  /**
   * Writes the mark of a counted Run with {@code write} (one status write, which may carry other
   * fields; set on this very Run, uid tested, see {@link StatusFieldPatch#set}), held in {@link
   * UsageMarks} from before the write: its event may arrive before the write's answer. A Run gone
   * meanwhile needs no mark (its ledger entry is settled).
   */
  public void mark(Run run, Supplier<Optional<Run>> write) {
    marks.marking(run);
    try {
      if (write.get().isEmpty()) {
        marks.forget(run);
      }
    } catch (RuntimeException e) {
      marks.failed(run);
      throw e;
    }
    // Here, once per run: the mark is what keeps a finished run from being seen again.
    metrics.runFinished(run);
  }

  private Optional<Run> markOnly(Run run) {
    return StatusFieldPatch.set(client, run, "usageRecorded", true);
  }
}
