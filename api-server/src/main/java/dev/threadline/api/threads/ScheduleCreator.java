package dev.threadline.api.threads;

import dev.threadline.api.auth.Tenant;
import java.util.Optional;

/**
 * Creates the schedule of {@code POST /v1/threads} with messages and a schedule. Schedules are
 * another part of the service: when a bean of this type exists, the thread endpoint hands the
 * schedule to it; when none does, such a request is a 400 and no thread is created.
 */
public interface ScheduleCreator {
  /**
   * Creates a schedule that runs {@code request.task()} in {@code thread}. Throws an {@link
   * dev.threadline.api.errors.ApiException} for bad input (e.g. a 400 naming {@code
   * schedule.cronExpression}); empty means schedules cannot be created now. Either way the caller
   * deletes the thread it just created (a failure to write, since {@link #validate} came first).
   */
  Optional<ScheduleSummary> create(Tenant tenant, ThreadView thread, ScheduleRequest request);

  /**
   * Checks {@code request} before the thread is written: throws the same {@link
   * dev.threadline.api.errors.ApiException} {@link #create} would for bad input, so that a refused
   * schedule leaves nothing behind. The thread's agent, environment and appId are not known yet. By
   * default nothing is checked here, and {@link #create} refuses bad input after the fact.
   */
  default void validate(ScheduleRequest request) {}
}
