package dev.threadline.operator.thread;

import dev.threadline.core.threads.ThreadTotals;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadStatus;
import dev.threadline.operator.kubernetes.InformerLists;
import dev.threadline.operator.kubernetes.OwnWrites;
import dev.threadline.operator.kubernetes.StatusWriteLoop;
import dev.threadline.operator.retention.ThreadArchiver;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.status.ReconcileErrors;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Rolls a thread's runs up into its status whenever one of them changes. A thread whose status is
 * rolled up for its spec already and counts a live run is not reconciled at start (its runs' own
 * events bring it back, the last when it leaves the API): a store of 100,000 threads would
 * otherwise hold every run behind 100,000 reconciles. A thread with no live run is reconciled at
 * start, since nothing else would bring it back to leave the API after its retention (live ones are
 * bounded by that retention). A write waits a moment for a run just created ({@link
 * StatusSettling}): a direct run costs its thread one status write.
 */
@ControllerConfiguration(
    name = "thread",
    informer = @Informer(onAddFilter = ThreadReconciler.ToReconcileAtStart.class))
public class ThreadReconciler implements Reconciler<ConversationThread> {
  /** Status writes tried at most when other writers change the thread meanwhile. */
  private static final int ATTEMPTS = 5;

  private final Clock clock;
  private final Conditions conditions;

  /** This controller's status writes, until the informer shows them ({@link OwnWrites}). */
  private final OwnWrites<ConversationThread> ownWrites = new OwnWrites<>();

  private final ThreadArchiver archiver;

  public ThreadReconciler(Clock clock, ThreadArchiver archiver) {
    this.clock = clock;
    this.archiver = archiver;
    this.conditions = new Conditions(clock);
  }

  @Override
  public List<EventSource<?, ConversationThread>> prepareEventSources(
      EventSourceContext<ConversationThread> context) {
    var runs =
        InformerEventSourceConfiguration.from(Run.class, ConversationThread.class)
            .withSecondaryToPrimaryMapper(run ->
                Set.of(new ResourceID(run.getSpec().getThread(), run.getMetadata().getNamespace())))
            .withNamespacesInheritedFromController()
            .withInformerListLimit(InformerLists.PAGE)
            // Of a run's writes, only those that change what it adds to its thread reconcile it.
            .withOnUpdateFilter((run, before) -> ThreadTotals.changedBy(before, run))
            .build();
    return List.of(
        new InformerEventSource<>(runs, context),
        ownWrites.releasedOnEvents(ConversationThread.class));
  }

  /**
   * Writes the rolled-up status itself (optimistic locking, re-read on a conflict) from the newest
   * of the cached thread and this controller's last write of it ({@link OwnWrites}): the next
   * reconcile, often brought by the next run event before the informer has this write, compares
   * against it rather than an older copy, which would otherwise make a second write that changes
   * nothing but {@code updatedAt}, or meet a conflict and read the thread again.
   */
  @Override
  public UpdateControl<ConversationThread> reconcile(
      ConversationThread cached, Context<ConversationThread> context) {
    ResourceID id = ResourceID.fromResource(cached);
    ConversationThread thread = ownWrites.newest(key(id), cached);
    Set<Run> runs = context.getSecondaryResources(Run.class);
    Optional<Duration> settling = StatusSettling.wait(thread, runs, clock.instant());
    if (settling.isPresent()) {
      // Its run is on its way or just began: the write its end brings says it all at once.
      return UpdateControl.<ConversationThread>noUpdate().rescheduleAfter(settling.get());
    }
    var outcome =
        StatusWriteLoop.write(
            context.getClient(),
            thread,
            ATTEMPTS,
            code -> code == HttpURLConnection.HTTP_CONFLICT,
            () ->
                context
                    .getClient()
                    .resources(ConversationThread.class)
                    .inNamespace(thread.getMetadata().getNamespace())
                    .withName(thread.getMetadata().getName())
                    .get(),
            copy -> rollUp(copy, runs));
    if (outcome instanceof StatusWriteLoop.Written<ConversationThread> written) {
      ownWrites.wrote(
          written.base(), written.written(), context.getPrimaryCache().get(id).orElse(null));
    }
    if (!runs.isEmpty() || outcome instanceof StatusWriteLoop.Gone<ConversationThread>) {
      return UpdateControl.noUpdate();
    }
    // No run of it is left in the API: the thread leaves too once idle for its retention.
    return archiver
        .archiveWhenIdle(ownWrites.newest(key(id), cached))
        .map(delay -> UpdateControl.<ConversationThread>noUpdate().rescheduleAfter(delay))
        .orElseGet(UpdateControl::noUpdate);
  }

  private static String key(ResourceID id) {
    return id.getNamespace().map(namespace -> namespace + "/").orElse("") + id.getName();
  }

  /**
   * Sets the status its live {@code runs} and its archived runs make of {@code thread}; false when
   * it holds it already.
   */
  private boolean rollUp(ConversationThread thread, Set<Run> runs) {
    ThreadStatus current = thread.getStatus() == null ? new ThreadStatus() : thread.getStatus();
    ThreadTotals totals = ThreadTotals.of(current.getArchived(), runs);
    ThreadStatus next = new ThreadStatus();
    // The archiver's part: kept as it is.
    next.setArchived(current.getArchived());
    next.setObservedGeneration(thread.getMetadata().getGeneration());
    // Ready: the thread takes a new message (none of its runs is in progress).
    boolean busy = totals.activeRun() != null;
    next.setConditions(
        conditions.summarise(
            current.getConditions(),
            busy
                ? Conditions.Summary.reconciling(
                    Conditions.FALSE,
                    "RunInProgress",
                    "Run " + totals.activeRun() + " is in progress")
                : Conditions.Summary.ready("Idle", null),
            thread.getMetadata().getGeneration()));
    next.setStatus(totals.state().value());
    next.setActiveRun(totals.activeRun());
    next.setMessageCount(totals.messageCount());
    next.setTokens(totals.tokens());
    next.setTotalCost(totals.totalCost());
    if (sameTotals(current, next)) {
      return false;
    }
    next.setUpdatedAt(Timestamps.format(clock.instant()));
    thread.setStatus(next);
    return true;
  }

  /**
   * Lets through the threads whose status does not reflect their current spec, and those with no
   * live run (every message it counts is one of its archived runs'), whose archive timer a restart
   * would otherwise lose.
   */
  public static final class ToReconcileAtStart implements OnAddFilter<ConversationThread> {
    @Override
    public boolean accept(ConversationThread thread) {
      ThreadStatus status = thread.getStatus();
      return status == null
          || !Objects.equals(status.getObservedGeneration(), thread.getMetadata().getGeneration())
          || !countsLiveRun(status);
    }

    /** Each live run counts its message at least, so only archived runs' leave them equal. */
    private static boolean countsLiveRun(ThreadStatus status) {
      long archived =
          status.getArchived() == null
              ? 0
              : Objects.requireNonNullElse(status.getArchived().getMessages(), 0L);
      return Objects.requireNonNullElse(status.getMessageCount(), 0L) > archived;
    }
  }

  private static boolean sameTotals(ThreadStatus a, ThreadStatus b) {
    return Objects.equals(a.getObservedGeneration(), b.getObservedGeneration())
        && Objects.equals(a.getConditions(), b.getConditions())
        && Objects.equals(a.getStatus(), b.getStatus())
        && Objects.equals(a.getActiveRun(), b.getActiveRun())
        && Objects.equals(a.getMessageCount(), b.getMessageCount())
        && a.tokens().equals(b.tokens())
        && Objects.equals(a.getTotalCost(), b.getTotalCost());
  }

  @Override
  public ErrorStatusUpdateControl<ConversationThread> updateErrorStatus(
      ConversationThread thread, Context<ConversationThread> context, Exception e) {
    return ReconcileErrors.readyFalse(conditions, thread, ThreadStatus::new, e);
  }
}
