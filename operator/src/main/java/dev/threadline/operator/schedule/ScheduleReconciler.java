package dev.threadline.operator.schedule;

import dev.threadline.core.kubernetes.EventObjects;
import dev.threadline.core.schedule.CronSchedule;
import dev.threadline.core.schedule.FiringNames;
import dev.threadline.core.schedule.InvalidScheduleException;
import dev.threadline.core.schedule.Schedules;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.schedule.Schedule;
import dev.threadline.crds.schedule.ScheduleStatus;
import dev.threadline.operator.kubernetes.InformerLists;
import dev.threadline.operator.kubernetes.KubernetesEvents;
import dev.threadline.operator.kubernetes.ResourceLogContext;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.status.ReconcileErrors;
import dev.threadline.telemetry.Telemetry;
import dev.threadline.trigger.FiringEvents;
import dev.threadline.trigger.ScheduleFirer;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.opentelemetry.api.trace.Tracer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a Schedule fire. Recurring: a CronJob whose Pod runs the trigger image. One-time: the
 * operator itself creates the Thread and Run at {@code scheduledTime}, waking up for that instant
 * rather than polling. Either way the status counts the Runs labelled with the schedule.
 *
 * <p>The CronJob and the trigger's ServiceAccount and RoleBinding are dependents of a workflow for
 * recurring schedules only: the trigger's objects are activated by {@link RecurringSchedule} (one
 * per namespace, never deleted with a schedule), the CronJob has it as precondition (a schedule
 * that stops being recurring loses its CronJob). The reconciler invokes the workflow once the cron
 * expression is known to be valid.
 *
 * <p>A one-time schedule fires exactly once: the thread is named after the schedule and the
 * scheduled minute, so a second attempt (after an operator restart between the creation and the
 * status write) finds it instead of making another; {@code status.firedAt} then records it.
 */
@Workflow(
    explicitInvocation = true,
    dependents = {
      @Dependent(
          name = ScheduleTriggerServiceAccountDependentResource.NAME,
          type = ScheduleTriggerServiceAccountDependentResource.class,
          activationCondition = RecurringSchedule.class),
      @Dependent(
          name = ScheduleTriggerRoleBindingDependentResource.NAME,
          type = ScheduleTriggerRoleBindingDependentResource.class,
          activationCondition = RecurringSchedule.class),
      @Dependent(
          name = ScheduleCronJobDependentResource.NAME,
          type = ScheduleCronJobDependentResource.class,
          // A precondition, not an activation condition: the framework deletes a dependent whose
          // precondition fails, but leaves one whose activation condition fails.
          reconcilePrecondition = RecurringSchedule.class,
          dependsOn = {
            ScheduleTriggerServiceAccountDependentResource.NAME,
            ScheduleTriggerRoleBindingDependentResource.NAME
          })
    })
@ControllerConfiguration(name = "schedule")
public class ScheduleReconciler implements Reconciler<Schedule> {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleReconciler.class);
  static final String COMPLETED = "Completed";

  /** The Completed reason of a one-time firing that made nothing (the user's thread limit). */
  static final String SKIPPED = "Skipped";

  /** Never wake up sooner than this: a clock a little behind must not make a busy loop. */
  private static final Duration MIN_WAKE_UP = Duration.ofMillis(500);

  /**
   * Never sleep longer than this (a wake-up finds the time still ahead and sleeps again): the
   * framework takes a delay in milliseconds, which a far-future time would overflow.
   */
  static final Duration MAX_WAKE_UP = Duration.ofHours(24);

  private final ScheduleCronJob cronJobs;
  private final Conditions conditions;
  private final KubernetesEvents events;
  private final Clock clock;
  private final int threadLimit;
  private final Tracer tracer;

  /**
   * @param threadLimit how many threads a user may hold: one-time firings over it make none, and
   *     CronJob Pods get it to check the same
   * @param telemetry one-time firings become its spans; CronJob Pods get what they need to export
   *     theirs to the same place
   */
  public ScheduleReconciler(
      String triggerImage,
      int threadLimit,
      Conditions conditions,
      Clock clock,
      Telemetry telemetry) {
    this.cronJobs = new ScheduleCronJob(triggerImage, threadLimit, telemetry.childEnvironment());
    this.tracer = telemetry.tracer();
    this.threadLimit = threadLimit;
    this.conditions = conditions;
    this.clock = clock;
    this.events = new KubernetesEvents(clock);
  }

  @Override
  public List<EventSource<?, Schedule>> prepareEventSources(EventSourceContext<Schedule> context) {
    var runs =
        InformerEventSourceConfiguration.from(Run.class, Schedule.class)
            .withName("schedule-runs")
            .withLabelSelector(Labels.SCHEDULE)
            .withSecondaryToPrimaryMapper(Mappers.fromLabel(Labels.SCHEDULE, null, Schedule.class))
            .withNamespacesInheritedFromController()
            .withInformerListLimit(InformerLists.PAGE)
            .build();
    return List.of(new InformerEventSource<>(runs, context));
  }

  @Override
  public UpdateControl<Schedule> reconcile(Schedule schedule, Context<Schedule> context) {
    Instant now = clock.instant();
    long generation = Objects.requireNonNullElse(schedule.getMetadata().getGeneration(), 0L);
    ScheduleStatus current =
        schedule.getStatus() == null ? new ScheduleStatus() : schedule.getStatus();
    ScheduleStatus next = new ScheduleStatus();
    next.setObservedGeneration(generation);
    next.setFiredAt(current.getFiredAt());
    next.setFiredThread(current.getFiredThread());
    Optional<Instant> wakeUp = Optional.empty();
    List<io.fabric8.kubernetes.api.model.Condition> nextConditions = current.getConditions();
    if (Schedules.isRecurring(schedule)
        && context.getSecondaryResource(CronJob.class).isEmpty()
        && !LiveSchedules.stillThere(context.getClient(), schedule)) {
      // The cache still has a schedule the API has deleted (the CronJob's deletion came first):
      // making its CronJob again would leave one firing for a schedule that is gone.
      try (ResourceLogContext logged = ResourceLogContext.of(schedule)) {
        LOG.debug("is gone or being deleted: no CronJob made for it");
      }
      return UpdateControl.noUpdate();
    }
    try {
      if (Schedules.isRecurring(schedule)) {
        CronSchedule cron = ScheduleTiming.cron(schedule);
        ScheduleCronJobDependentResource.want(context, cronJobs.desired(schedule, cron));
        context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
        next.setCronJob(FiringNames.cronJobName(schedule.getMetadata().getName()));
      } else {
        context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
        Instant at = ScheduleTiming.scheduledTime(schedule);
        Optional<String> skipped = Optional.empty();
        if (next.getFiredAt() == null && Schedules.isEnabled(schedule)) {
          if (now.isBefore(at)) {
            wakeUp = Optional.of(at);
          } else {
            skipped = fire(schedule, context, at, now, next);
          }
        }
        if (skipped.isPresent()) {
          // Written once, when it happens; later reconciles keep the condition as it is.
          nextConditions =
              conditions.set(
                  nextConditions,
                  COMPLETED,
                  Conditions.TRUE,
                  SKIPPED,
                  "The one-time schedule was due at "
                      + Timestamps.format(at)
                      + " and made no thread. "
                      + skipped.get(),
                  generation);
        } else if (next.getFiredThread() != null) {
          nextConditions =
              conditions.set(
                  nextConditions,
                  COMPLETED,
                  Conditions.TRUE,
                  "Fired",
                  "The one-time schedule ran at "
                      + next.getFiredAt()
                      + " (thread "
                      + next.getFiredThread()
                      + ").",
                  generation);
        }
      }
      schedule.setStatus(next);
      Optional<Instant> nextRun = ScheduleTiming.nextRunAt(schedule, now);
      next.setNextRunAt(nextRun.map(Timestamps::format).orElse(null));
      if (Schedules.isRecurring(schedule)) {
        // Only to keep status.nextRunAt current: the CronJob does the firing.
        wakeUp = nextRun;
      }
      nextConditions =
          conditions.summarise(
              nextConditions,
              Conditions.Summary.ready("Scheduled", readyMessage(schedule, next)),
              generation);
    } catch (InvalidScheduleException invalid) {
      nextConditions =
          conditions.summarise(
              nextConditions,
              Conditions.Summary.stalled(
                  "InvalidSpec", "spec." + invalid.field() + ": " + invalid.getMessage()),
              generation);
      next.setNextRunAt(null);
    }
    next.setConditions(nextConditions);
    ScheduleRunCounts counts = ScheduleRunCounts.of(context.getSecondaryResources(Run.class));
    next.setRunCount(counts.runs());
    next.setSuccessCount(counts.successes());
    next.setFailureCount(counts.failures());
    next.setTotalCost(counts.totalCost());
    next.setLastRunAt(counts.lastRunAt().map(Timestamps::format).orElse(null));

    UpdateControl<Schedule> control;
    if (sameStatus(current, next)) {
      control = UpdateControl.noUpdate();
    } else {
      schedule.setStatus(next);
      control = UpdateControl.patchStatus(schedule);
    }
    wakeUp.map(at -> wakeUpDelay(now, at)).ifPresent(control::rescheduleAfter);
    return control;
  }

  /** Fires the one-time schedule; why it made nothing, if it did not. */
  private Optional<String> fire(
      Schedule schedule, Context<Schedule> context, Instant at, Instant now, ScheduleStatus next) {
    String threadName = FiringNames.threadName(schedule.getMetadata().getName(), at);
    ScheduleFirer.Firing firing =
        new ScheduleFirer(context.getClient(), threadLimit, tracer).fire(schedule, threadName, at);
    next.setFiredAt(Timestamps.format(now));
    if (firing.isSkipped()) {
      // A one-time schedule has one chance: spent (firedAt, no firedThread); the condition says
      // why.
      try (ResourceLogContext logged = ResourceLogContext.of(schedule)) {
        LOG.warn("skipped its firing of {}: {}", Timestamps.format(at), firing.skipped());
      }
      record(context, schedule, firing, at);
      return Optional.of(firing.skipped());
    }
    next.setFiredThread(firing.threadName());
    // A reconcile that finds the thread of an earlier attempt (its status write lost or not yet
    // seen) is the same firing: one Event per firing.
    record(context, schedule, firing, at);
    try (ResourceLogContext logged = ResourceLogContext.of(schedule)) {
      LOG.info(
          "fired for {}: {} {}",
          Timestamps.format(at),
          firing.created() ? "created thread" : "found the thread of an earlier attempt,",
          firing.threadName());
    }
    return Optional.empty();
  }

  private void record(
      Context<Schedule> context, Schedule schedule, ScheduleFirer.Firing firing, Instant at) {
    FiringEvents.describe(firing, at)
        .ifPresent(event -> {
          if (EventObjects.WARNING.equals(event.type())) {
            events.warning(context.getClient(), schedule, event.reason(), event.message());
          } else {
            events.normal(context.getClient(), schedule, event.reason(), event.message());
          }
        });
  }

  private static String readyMessage(Schedule schedule, ScheduleStatus status) {
    if (!Schedules.isEnabled(schedule)) {
      return "The schedule is disabled.";
    }
    if (status.getNextRunAt() == null) {
      return Schedules.isRecurring(schedule)
          ? "The cron expression never fires again."
          : "The one-time schedule has run.";
    }
    return "Next run at " + status.getNextRunAt() + ".";
  }

  /**
   * How long to sleep until {@code at}, kept within {@link #MIN_WAKE_UP} and {@link #MAX_WAKE_UP}.
   */
  static Duration wakeUpDelay(Instant now, Instant at) {
    Duration delay = Duration.between(now, at);
    if (delay.compareTo(MIN_WAKE_UP) < 0) {
      return MIN_WAKE_UP;
    }
    return delay.compareTo(MAX_WAKE_UP) > 0 ? MAX_WAKE_UP : delay;
  }

  private static boolean sameStatus(ScheduleStatus a, ScheduleStatus b) {
    return Objects.equals(a.getObservedGeneration(), b.getObservedGeneration())
        && Objects.equals(a.getConditions(), b.getConditions())
        && Objects.equals(a.getNextRunAt(), b.getNextRunAt())
        && Objects.equals(a.getLastRunAt(), b.getLastRunAt())
        && Objects.equals(a.getRunCount(), b.getRunCount())
        && Objects.equals(a.getTotalCost(), b.getTotalCost())
        && Objects.equals(a.getSuccessCount(), b.getSuccessCount())
        && Objects.equals(a.getFailureCount(), b.getFailureCount())
        && Objects.equals(a.getFiredAt(), b.getFiredAt())
        && Objects.equals(a.getFiredThread(), b.getFiredThread())
        && Objects.equals(a.getCronJob(), b.getCronJob());
  }

  @Override
  public ErrorStatusUpdateControl<Schedule> updateErrorStatus(
      Schedule schedule, Context<Schedule> context, Exception e) {
    return ReconcileErrors.readyFalse(conditions, schedule, ScheduleStatus::new, e);
  }
}
