package dev.threadline.local.kubelet.controllers;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

/**
 * A CronJob's {@code schedule} in its {@code timeZone}: standard five-field cron (and the {@code
 * @hourly}-style macros). The calendar and daylight-saving arithmetic is cron-utils' (UNIX
 * definition), not ours.
 */
public final class CronSchedule {
  private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
  private static final Map<String, String> MACROS = Map.of(
      "@yearly", "0 0 1 1 *",
      "@annually", "0 0 1 1 *",
      "@monthly", "0 0 1 * *",
      "@weekly", "0 0 * * 0",
      "@daily", "0 0 * * *",
      "@midnight", "0 0 * * *",
      "@hourly", "0 * * * *");

  private final ExecutionTime executionTime;
  private final ZoneId zone;

  private CronSchedule(ExecutionTime executionTime, ZoneId zone) {
    this.executionTime = executionTime;
    this.zone = zone;
  }

  /**
   * @param timeZone an IANA zone such as {@code Europe/Berlin}; null or blank means UTC
   * @throws IllegalArgumentException naming what is wrong with the schedule or the zone
   */
  public static CronSchedule parse(String schedule, String timeZone) {
    if (schedule == null || schedule.isBlank()) {
      throw new IllegalArgumentException("schedule is empty");
    }
    String expression = MACROS.getOrDefault(schedule.trim().toLowerCase(java.util.Locale.ROOT), schedule.trim());
    ZoneId zone;
    try {
      zone = timeZone == null || timeZone.isBlank() ? ZoneOffset.UTC : ZoneId.of(timeZone);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("unknown time zone \"" + timeZone + "\"", e);
    }
    try {
      return new CronSchedule(ExecutionTime.forCron(PARSER.parse(expression)), zone);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid schedule \"" + schedule + "\": " + e.getMessage(), e);
    }
  }

  /** The first scheduled time strictly after {@code after}. */
  public Optional<Instant> next(Instant after) {
    return executionTime.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant);
  }

  /** The latest scheduled time {@code t} with {@code earliest < t <= now}: the run that is due, if any. */
  public Optional<Instant> mostRecent(Instant earliest, Instant now) {
    // Ask for the last time before the next whole second, so a time exactly at "now" counts as due.
    Optional<Instant> candidate = executionTime.lastExecution(now.plusSeconds(1).atZone(zone).withNano(0))
        .map(ZonedDateTime::toInstant);
    if (candidate.isPresent() && candidate.get().isAfter(now)) {
      candidate = executionTime.lastExecution(candidate.get().atZone(zone)).map(ZonedDateTime::toInstant);
    }
    return candidate.filter(time -> time.isAfter(earliest) && !time.isAfter(now));
  }

  public ZoneId zone() {
    return zone;
  }
}
