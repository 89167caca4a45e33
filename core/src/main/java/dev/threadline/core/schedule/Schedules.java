package dev.threadline.core.schedule;

import dev.threadline.crds.schedule.Schedule;

/**
 * Questions about a Schedule every component asks the same way. Static helpers rather than methods
 * on {@link Schedule}, whose getters Jackson would serialise as fields.
 */
public final class Schedules {
  private Schedules() {}

  /** Whether it fires on a cron; anything else is treated as one-time. */
  public static boolean isRecurring(Schedule schedule) {
    return schedule.getSpec() != null
        && Schedule.RECURRING.equals(schedule.getSpec().getScheduleType());
  }

  /** {@code spec.enabled}, true when absent (the schema's default). */
  public static boolean isEnabled(Schedule schedule) {
    return schedule.getSpec() == null
        || schedule.getSpec().getEnabled() == null
        || schedule.getSpec().getEnabled();
  }

  /** Whether a one-time schedule has fired: it never fires again. */
  public static boolean hasFired(Schedule schedule) {
    return schedule.getStatus() != null && schedule.getStatus().getFiredAt() != null;
  }

  /** The timezone, UTC when absent. */
  public static String timezone(Schedule schedule) {
    String timezone = schedule.getSpec() == null ? null : schedule.getSpec().getTimezone();
    return timezone == null || timezone.isBlank() ? "UTC" : timezone;
  }
}
