package dev.threadline.operator.schedule;

import dev.threadline.core.schedule.Schedules;
import dev.threadline.crds.schedule.Schedule;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/**
 * Only a recurring schedule has a CronJob and needs the trigger's identity; a one-time schedule is
 * fired by the operator itself. When a schedule stops being recurring its CronJob is deleted.
 */
public class RecurringSchedule implements Condition<Object, Schedule> {
  @Override
  public boolean isMet(
      DependentResource<Object, Schedule> dependentResource,
      Schedule schedule,
      Context<Schedule> context) {
    return Schedules.isRecurring(schedule);
  }
}
