package dev.threadline.operator.run;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.operator.kubernetes.StatusFieldPatch;
import dev.threadline.operator.retention.RunArchiver;
import dev.threadline.operator.usage.RunUsageRecorder;
import dev.threadline.operator.webhooks.RunWebhooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bookkeeping of a finished Run: its usage counted into the ledger ({@link RunUsageRecorder})
 * and its webhooks queued ({@link RunWebhooks}), then one status write that sets the marks of both
 * ({@code usageRecorded}, {@code webhooksQueued}; only the ones not set yet). One controller, so
 * that a finished run costs one Run write and one Run informer for both.
 *
 * <p>Its own controller, so that it sees status changes (the run controller reacts to spec changes
 * only). A Run deleted before it is counted stays (the recorder's finalizer) until it is counted; a
 * deleted Run has no webhooks left to queue.
 */
@ControllerConfiguration(
    name = RunBookkeeping.NAME,
    generationAwareEventProcessing = false,
    finalizerName = RunUsageRecorder.FINALIZER,
    informer = @Informer(onAddFilter = RunBookkeeping.ToSettle.class))
public class RunBookkeeping implements Reconciler<Run>, Cleaner<Run> {
  public static final String NAME = "run-bookkeeping";

  private final KubernetesClient client;
  private final RunUsageRecorder usage;
  private final RunWebhooks webhooks;

  private final RunArchiver archiver;

  public RunBookkeeping(
      KubernetesClient client, RunUsageRecorder usage, RunArchiver archiver, Clock clock) {
    this.client = client;
    this.usage = usage;
    this.archiver = archiver;
    this.webhooks = new RunWebhooks(client, clock);
  }

  @Override
  public List<EventSource<?, Run>> prepareEventSources(EventSourceContext<Run> context) {
    return RunWebhooks.eventSources(context);
  }

  @Override
  public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
    if (!RunPhase.of(run).isTerminal()) {
      return UpdateControl.noUpdate();
    }
    Optional<Run> counted = usage.count(run, context);
    Map<String, Object> marks = new LinkedHashMap<>();
    RuntimeException queueing = null;
    try {
      if (webhooks.queue(run, context)) {
        marks.put("webhooksQueued", true);
      }
    } catch (RuntimeException e) {
      // The usage mark is written all the same; the retry queues the webhooks.
      queueing = e;
    }
    if (counted.isPresent()) {
      marks.put("usageRecorded", true);
      usage.mark(counted.get(), () -> StatusFieldPatch.set(client, counted.get(), marks));
    } else if (!marks.isEmpty()) {
      StatusFieldPatch.set(client, run, marks);
    }
    if (queueing != null) {
      throw queueing;
    }
    // Settled: it leaves the API after its retention (its content is in the history store).
    return archiver
        .archiveWhenDue(run, () -> context.getPrimaryCache().list(run.getMetadata().getNamespace()))
        .map(delay -> UpdateControl.<Run>noUpdate().rescheduleAfter(delay))
        .orElseGet(UpdateControl::noUpdate);
  }

  /** A deleted Run goes once it is counted (see {@link RunUsageRecorder#cleanup}). */
  @Override
  public DeleteControl cleanup(Run run, Context<Run> context) {
    return usage.cleanup(run, context);
  }

  /**
   * Which events can change what a reconcile does: a Run being deleted or without the finalizer, or
   * a finished one with usage to count (not being marked here) or webhooks to queue. While this
   * process's mark is on its way, neither is left: that one write carries both marks.
   */
  public OnUpdateFilter<Run> eventFilter() {
    return (run, before) -> {
      boolean toCount = usage.isToCountOnUpdate(run);
      return run.isMarkedForDeletion()
          || !run.hasFinalizer(RunUsageRecorder.FINALIZER)
          || toCount
          || (isToQueue(run) && !usage.awaitingOwnMark(run));
    };
  }

  private static boolean isToQueue(Run run) {
    return RunPhase.of(run).isTerminal() && !RunWebhooks.isQueued(run);
  }

  /**
   * At start (and for each Run created): the ones a reconcile acts on — every finished one, which
   * is counted, announced or archived (live Runs are bounded by the retention).
   */
  public static final class ToSettle implements OnAddFilter<Run> {
    @Override
    public boolean accept(Run run) {
      // A finished run: settled or not, it is to leave the API after its retention.
      return run.isMarkedForDeletion()
          || !run.hasFinalizer(RunUsageRecorder.FINALIZER)
          || RunPhase.of(run).isTerminal();
    }
  }
}
