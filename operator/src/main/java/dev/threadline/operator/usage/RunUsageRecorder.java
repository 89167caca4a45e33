package dev.threadline.operator.usage;

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
import java.util.Objects;
import java.util.Optional;
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
 * still working is ended first ({@link UnfinishedRuns}), with what it spent so far.
 *
 * <p>Its own controller, so that it sees status changes (the run controller reacts to spec changes
 * only) and the run controller stays about running runs.
 */
@ControllerConfiguration(
    name = "run-usage",
    generationAwareEventProcessing = false,
    finalizerName = RunUsageRecorder.FINALIZER)
public class RunUsageRecorder implements Reconciler<Run>, Cleaner<Run> {
  public static final String FINALIZER = "threadline.dev/usage";
  private static final Logger LOG = LoggerFactory.getLogger(RunUsageRecorder.class);
  private static final int ATTEMPTS = 10;

  private final KubernetesClient client;
  private final UsageLedgers ledgers;
  private final TenantPlans tenants;
  private final Clock clock;
  private final OperatorMetrics metrics;
  private final UnfinishedRuns unfinished;

  public RunUsageRecorder(
      KubernetesClient client,
      UsageLedgers ledgers,
      TenantPlans tenants,
      Clock clock,
      OperatorMetrics metrics,
      UnfinishedRuns unfinished) {
    this.unfinished = unfinished;
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
    }
    count(run, context);
    return DeleteControl.defaultDelete();
  }

  private void count(Run run, Context<Run> context) {
    if (!RunPhase.of(run).isTerminal() || Boolean.TRUE.equals(run.getStatus().getUsageRecorded())) {
      return;
    }
    String namespace = run.getMetadata().getNamespace();
    if (!stillUncounted(run)) {
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
        (uid, name) -> isSettled(context, namespace, uid, name));
    markRecorded(run);
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
   * Whether the Run, as the API has it now, is still to be counted. The cached copy may predate our
   * own {@code usageRecorded} write (another writer's event for the run can arrive first); by then
   * the ledger may have forgotten the run as settled, and counting it from the stale copy would
   * count it twice. Reconciles of one Run never overlap, so the fresh read sees every earlier mark.
   */
  private boolean stillUncounted(Run run) {
    Run current =
        client
            .resources(Run.class)
            .inNamespace(run.getMetadata().getNamespace())
            .withName(run.getMetadata().getName())
            .get();
    return current != null
        && run.getMetadata().getUid().equals(current.getMetadata().getUid())
        && current.getStatus() != null
        && !Boolean.TRUE.equals(current.getStatus().getUsageRecorded());
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
