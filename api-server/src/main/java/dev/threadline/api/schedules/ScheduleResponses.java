package dev.threadline.api.schedules;

/** The response bodies of the schedule endpoints. */
final class ScheduleResponses {
  private ScheduleResponses() {}

  /** {@code {schedule}}. */
  record Single(ScheduleView schedule) {}

  /** {@code {schedule: {id, enabled}}}, the answer to enable and disable. */
  record Toggled(Toggle schedule) {}

  record Toggle(String id, boolean enabled) {}

  /** {@code {thread: {id, status}, message}}, the answer to trigger. */
  record Triggered(TriggeredThread thread, String message) {}

  record TriggeredThread(String id, String status) {}
}
