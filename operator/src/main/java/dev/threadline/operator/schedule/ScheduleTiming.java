package dev.threadline.operator.schedule;

import dev.threadline.core.schedule.CronSchedule;
import dev.threadline.core.schedule.InvalidScheduleException;
import dev.threadline.core.schedule.Schedules;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.schedule.Schedule;
import java.time.Instant;
import java.util.Optional;

/**
 * When a schedule fires, read from its spec: the cron of a recurring one, the instant of a one-time
 * one. Invalid specs (possible through kubectl, which skips the REST checks) throw {@link
 * InvalidScheduleException} naming the field.
 */
final class ScheduleTiming {
  private ScheduleTiming() {}

  static CronSchedule cron(Schedule schedule) {
    return CronSchedule.parse(schedule.getSpec().getCronExpression(), Schedules.timezone(schedule));
  }

  static Instant scheduledTime(Schedule schedule) {
    String text = schedule.getSpec().getScheduledTime();
    if (text == null || text.isBlank()) {
      throw new InvalidScheduleException(
          "scheduledTime", "scheduledTime is required for one-time schedules");
    }
    return Timestamps.parse(text)
        .orElseThrow(() ->
            new InvalidScheduleException(
                "scheduledTime",
                "scheduledTime must be an ISO 8601 instant such as 2026-12-24T09:00:00Z, got \""
                    + text
                    + "\""));
  }

  /** The next firing after {@code now}; empty when disabled or a one-time schedule has fired. */
  static Optional<Instant> nextRunAt(Schedule schedule, Instant now) {
    if (!Schedules.isEnabled(schedule)) {
      return Optional.empty();
    }
    if (Schedules.isRecurring(schedule)) {
      return cron(schedule).nextAfter(now);
    }
    return Schedules.hasFired(schedule) ? Optional.empty() : Optional.of(scheduledTime(schedule));
  }
}
