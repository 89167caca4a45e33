package dev.threadline.api.schedules;

import dev.threadline.api.errors.ApiException;
import dev.threadline.core.schedule.CronSchedule;
import dev.threadline.core.schedule.InvalidScheduleException;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.schedule.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Field rules for schedules, the same as the CRD's schema ({@code ScheduleSpec}) plus what a schema
 * cannot say (a cron that parses, a known zone, a time in the future), so that bad input is a 400
 * naming the field. Fields are named with a prefix: none for {@code /v1/schedules}, {@code
 * schedule.} when the schedule comes inside a thread request.
 */
final class ScheduleRules {
  static final int MAX_NAME = 200;
  static final int MAX_DESCRIPTION = 2000;
  static final int MAX_TASK = 1_048_576;
  static final int MAX_APP_ID = 200;

  /**
   * The latest one-time schedule: RFC 3339 (and so Kubernetes and the contract's timestamps) writes
   * years with four digits.
   */
  static final Instant LATEST_SCHEDULED_TIME = Instant.parse("9999-12-31T23:59:59Z");

  /** How many coming firings the interval check looks at. */
  static final int CHECKED_FIRINGS = 500;

  private final String prefix;

  ScheduleRules(String prefix) {
    this.prefix = prefix;
  }

  String requiredText(String field, String value, int max) {
    if (value == null) {
      throw bad(field, "is required");
    }
    return text(field, value, max);
  }

  /** A non-blank string of at most {@code max} characters, stripped. */
  String text(String field, String value, int max) {
    String stripped = value.strip();
    if (stripped.isEmpty()) {
      throw bad(field, "must not be blank");
    }
    return bounded(field, stripped, max);
  }

  /** Optional text: absent stays absent, empty means none. */
  String optionalText(String field, String value, int max) {
    if (value == null || value.isBlank()) {
      return null;
    }
    return bounded(field, value.strip(), max);
  }

  String scheduleType(String value) {
    if (value == null) {
      throw bad("scheduleType", "is required");
    }
    if (!value.equals(Schedule.ONE_TIME) && !value.equals(Schedule.RECURRING)) {
      throw bad("scheduleType", "must be one of one-time, recurring");
    }
    return value;
  }

  /** A zone id, UTC when absent. */
  ZoneId timezone(String value) {
    if (value != null && value.isBlank()) {
      throw bad("timezone", "must not be blank");
    }
    try {
      return CronSchedule.zone(value);
    } catch (InvalidScheduleException e) {
      throw invalid(e);
    }
  }

  /**
   * A cron that parses and fires no more often than every {@code minInterval} (checked over its
   * next {@value #CHECKED_FIRINGS} firings from {@code now}).
   */
  CronSchedule cron(String expression, ZoneId zone, Duration minInterval, Instant now) {
    if (expression == null) {
      throw bad("cronExpression", "is required for recurring schedules");
    }
    CronSchedule cron;
    try {
      cron = CronSchedule.parse(expression, zone.getId());
    } catch (InvalidScheduleException e) {
      throw invalid(e);
    }
    cron.shortestInterval(now, CHECKED_FIRINGS)
        .filter(gap -> gap.compareTo(minInterval) < 0)
        .ifPresent(gap -> {
          throw bad(
              "cronExpression",
              "fires every "
                  + gap.toSeconds()
                  + " s at times; schedules may fire at most every "
                  + minInterval.toSeconds()
                  + " s");
        });
    return cron;
  }

  /**
   * An ISO 8601 date-time in the future, up to {@link #LATEST_SCHEDULED_TIME}: an instant ({@code
   * Z} or an offset), or a local date-time read in the schedule's zone.
   */
  Instant scheduledTime(String value, ZoneId zone, Instant now) {
    if (value == null) {
      throw bad("scheduledTime", "is required for one-time schedules");
    }
    Instant at =
        Timestamps.parse(value.strip())
            .or(() -> localDateTime(value.strip(), zone))
            .orElseThrow(() ->
                bad("scheduledTime", "must be an ISO 8601 date-time such as 2026-12-24T09:00:00Z"));
    if (!at.isAfter(now)) {
      throw bad("scheduledTime", "must be in the future");
    }
    if (at.isAfter(LATEST_SCHEDULED_TIME)) {
      throw bad("scheduledTime", "must be no later than " + LATEST_SCHEDULED_TIME);
    }
    return at;
  }

  /** The Kubernetes name of an id of the given kind; absent stays absent. */
  String reference(String field, String id, String kind) {
    if (id == null) {
      return null;
    }
    return ResourceIds.toName(id, kind)
        .orElseThrow(() -> bad(field, "must be an id of the form " + kind + "_…"));
  }

  ApiException bad(String field, String problem) {
    return ApiException.badRequest(field(field), problem);
  }

  /** How a 400 names {@code field}: {@code cronExpression}, or {@code schedule.cronExpression}. */
  String field(String field) {
    return prefix + field;
  }

  /**
   * core's messages name the field in their own words ("Unknown timezone ..."); keep them whole.
   */
  private ApiException invalid(InvalidScheduleException e) {
    String message = e.getMessage();
    return message.startsWith(e.field() + " ")
        ? ApiException.badRequest(prefix + message)
        : ApiException.badRequest(prefix + e.field() + " is invalid: " + message);
  }

  private String bounded(String field, String value, int max) {
    if (value.length() > max) {
      throw bad(field, "must be at most " + max + " characters");
    }
    return value;
  }

  private static Optional<Instant> localDateTime(String value, ZoneId zone) {
    try {
      return Optional.of(LocalDateTime.parse(value).atZone(zone).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
