package dev.threadline.api.schedules;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.threads.ScheduleCreator;
import dev.threadline.api.threads.ScheduleRequest;
import dev.threadline.api.threads.ScheduleSummary;
import dev.threadline.api.threads.ThreadView;
import java.util.Optional;

/**
 * The schedule of {@code POST /v1/threads} with messages and a schedule: it runs the thread's first
 * message with the thread's agent, environment and appId, and has the webhooks it was given.
 */
final class ThreadScheduleCreator implements ScheduleCreator {
  private final ScheduleService schedules;

  ThreadScheduleCreator(ScheduleService schedules) {
    this.schedules = schedules;
  }

  @Override
  public void validate(ScheduleRequest request) {
    schedules.validateForThread(forThread(request, null, null, null));
  }

  @Override
  public Optional<ScheduleSummary> create(
      Tenant tenant, ThreadView thread, ScheduleRequest request) {
    ScheduleView created =
        schedules.createForThread(
            tenant, forThread(request, thread.agentId(), thread.environmentId(), thread.appId()));
    return Optional.of(
        new ScheduleSummary(
            created.id(),
            created.name(),
            created.scheduleType(),
            created.cronExpression(),
            created.enabled(),
            created.webhooks()));
  }

  private static ThreadScheduleRequest forThread(
      ScheduleRequest request, String agentId, String environmentId, String appId) {
    return new ThreadScheduleRequest(
        request.type(),
        request.name(),
        request.cronExpression(),
        request.timezone(),
        request.scheduledTime(),
        request.task(),
        agentId,
        environmentId,
        appId,
        request.webhooks());
  }
}
