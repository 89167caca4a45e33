package dev.threadline.core.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A five-field cron expression (minute, hour, day of month, month, day of week with Sunday = 0)
 * read in a time zone. The math, DST included, is cron-utils'; this class only adds the contract's
 * rules, Kubernetes' CronJob macros, and error messages.
 */
public final class CronSchedule {
  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  /** What a CronJob's {@code schedule} may say instead of five fields. */
  private static final Map<String, String> CRONJOB_MACROS =
      Map.of(
          "@yearly", "0 0 1 1 *",
          "@annually", "0 0 1 1 *",
          "@monthly", "0 0 1 * *",
          "@weekly", "0 0 * * 0",
          "@daily", "0 0 * * *",
          "@midnight", "0 0 * * *",
          "@hourly", "0 * * * *");

  /**
   * Five fields without a year repeat at least every 28 years (a weekday and 29 February line up
   * again), so an expression that fires after this instant fires forever, and one that does not
   * never fires. A fixed instant keeps parsing pure: the API and the operator agree.
   */
  private static final Instant NEVER_FIRES_PROBE = Instant.parse("2000-01-01T00:00:00Z");

  private final String expression;
  private final ZoneId zone;
  private final ExecutionTime executionTime;

  private CronSchedule(String expression, ZoneId zone, Cron cron) {
    this.expression = expression;
    this.zone = zone;
    this.executionTime = ExecutionTime.forCron(cron);
  }

  /**
   * Parses an expression and a time zone (null or blank means UTC).
   *
   * @throws InvalidScheduleException naming the field ({@code cronExpression} or {@code timezone})
   */
  public static CronSchedule parse(String expression, String timezone) {
    ZoneId zone = zone(timezone);
    if (expression == null || expression.isBlank()) {
      throw new InvalidScheduleException(
          "cronExpression", "cronExpression is required for recurring schedules");
    }
    String normalized = expression.strip().replaceAll("\\s+", " ");
    int fields = normalized.split(" ").length;
    if (fields != 5) {
      throw new InvalidScheduleException(
          "cronExpression",
          "cronExpression must have 5 fields (minute hour day-of-month month day-of-week), got "
              + fields);
    }
    CronSchedule schedule;
    try {
      Cron cron = PARSER.parse(normalized);
      cron.validate();
      schedule = new CronSchedule(normalized, zone, cron);
    } catch (IllegalArgumentException e) {
      throw new InvalidScheduleException(
          "cronExpression", "Invalid cron expression \"" + normalized + "\": " + e.getMessage());
    }
    if (schedule.nextAfter(NEVER_FIRES_PROBE).isEmpty()) {
      throw new InvalidScheduleException(
          "cronExpression",
          "cronExpression \""
              + normalized
              + "\" never fires (no date matches it, e.g. 31 February)");
    }
    return schedule;
  }

  /**
   * A Kubernetes CronJob's {@code schedule}: five fields or a macro such as {@code @hourly}.
   *
   * @throws InvalidScheduleException naming what is wrong
   */
  public static CronSchedule parseCronJob(String schedule, String timezone) {
    String expression = schedule == null ? null : schedule.strip();
    return parse(
        expression == null
            ? null
            : CRONJOB_MACROS.getOrDefault(expression.toLowerCase(Locale.ROOT), expression),
        timezone);
  }

  /** A zone id, UTC when blank; an unknown zone names the {@code timezone} field. */
  public static ZoneId zone(String timezone) {
    if (timezone == null || timezone.isBlank()) {
      return ZoneId.of("UTC");
    }
    try {
      return ZoneId.of(timezone.strip());
    } catch (DateTimeException e) {
      throw new InvalidScheduleException(
          "timezone",
          "Unknown timezone \"" + timezone + "\" (use an IANA name such as Europe/Berlin)");
    }
  }

  /**
   * The first firing strictly after {@code after}, as an instant; empty if it never fires again.
   */
  public Optional<Instant> nextAfter(Instant after) {
    return executionTime.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant);
  }

  /**
   * The shortest time between consecutive firings among the next {@code firings} after {@code
   * from}; empty when it fires fewer than twice. Cron fields combine as a product, so every day it
   * fires repeats the same minutes and hours: a few hundred firings show the shortest gap.
   */
  public Optional<Duration> shortestInterval(Instant from, int firings) {
    Duration shortest = null;
    Optional<Instant> previous = nextAfter(from);
    for (int i = 1; i < firings && previous.isPresent(); i++) {
      Optional<Instant> next = nextAfter(previous.get());
      if (next.isEmpty()) {
        break;
      }
      Duration gap = Duration.between(previous.get(), next.get());
      if (shortest == null || gap.compareTo(shortest) < 0) {
        shortest = gap;
      }
      previous = next;
    }
    return Optional.ofNullable(shortest);
  }

  /** The last firing at or before {@code atOrBefore}; empty if none. */
  public Optional<Instant> lastAtOrBefore(Instant atOrBefore) {
    // Ask for the last firing before the next whole second, so a firing exactly at the instant
    // counts.
    Optional<Instant> candidate =
        executionTime
            .lastExecution(atOrBefore.plusSeconds(1).atZone(zone).withNano(0))
            .map(ZonedDateTime::toInstant);
    if (candidate.isPresent() && candidate.get().isAfter(atOrBefore)) {
      candidate =
          executionTime.lastExecution(candidate.get().atZone(zone)).map(ZonedDateTime::toInstant);
    }
    return candidate.filter(time -> !time.isAfter(atOrBefore));
  }

  /** The firing that is due: the latest one after {@code earliest} and at or before {@code now}. */
  public Optional<Instant> mostRecent(Instant earliest, Instant now) {
    return lastAtOrBefore(now).filter(time -> time.isAfter(earliest));
  }

  public String expression() {
    return expression;
  }

  public ZoneId zone() {
    return zone;
  }
}
