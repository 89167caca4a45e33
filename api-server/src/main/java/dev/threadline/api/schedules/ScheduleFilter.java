package dev.threadline.api.schedules;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.schedule.Schedule;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The list's query filters, each optional: {@code agentId}, {@code environmentId}, {@code appId},
 * {@code scheduleType} and {@code enabled} (whether it will fire, as the view reports it).
 */
record ScheduleFilter(
    String agentName, String environmentName, String appId, String scheduleType, Boolean enabled)
    implements Predicate<Schedule> {

  static ScheduleFilter parse(
      String agentId, String environmentId, String appId, String scheduleType, String enabled) {
    ScheduleRules rules = new ScheduleRules("");
    return new ScheduleFilter(
        rules.reference("agentId", agentId, "agent"),
        rules.reference("environmentId", environmentId, "env"),
        appId,
        scheduleType == null ? null : rules.scheduleType(scheduleType),
        enabled == null ? null : bool(enabled));
  }

  @Override
  public boolean test(Schedule schedule) {
    var spec = schedule.getSpec();
    return (agentName == null || spec != null && agentName.equals(spec.getAgent()))
        && (environmentName == null
            || spec != null && environmentName.equals(spec.getEnvironment()))
        && (appId == null || spec != null && appId.equals(spec.getAppId()))
        && (scheduleType == null || spec != null && scheduleType.equals(spec.getScheduleType()))
        && (enabled == null || Objects.equals(enabled, ScheduleMapper.willFire(schedule)));
  }

  private static boolean bool(String value) {
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default -> throw ApiException.badRequest("enabled", "must be true or false");
    };
  }
}
