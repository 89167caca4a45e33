package dev.threadline.core.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * A five-field cron expression (minute, hour, day of month, month, day of week with Sunday = 0)
 * read in a time zone. The math, DST included, is cron-utils'; this class only adds the contract's
 * rules and error messages.
 */
public final class CronSchedule {
  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

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
      throw new InvalidScheduleException("cronExpression", "cronExpression is required for recurring schedules");
    }
    String normalized = expression.strip().replaceAll("\\s+", " ");
    int fields = normalized.split(" ").length;
    if (fields != 5) {
      throw new InvalidScheduleException("cronExpression",
          "cronExpression must have 5 fields (minute hour day-of-month month day-of-week), got " + fields);
    }
    try {
      Cron cron = PARSER.parse(normalized);
      cron.validate();
      return new CronSchedule(normalized, zone, cron);
    } catch (IllegalArgumentException e) {
      throw new InvalidScheduleException("cronExpression",
          "Invalid cron expression \"" + normalized + "\": " + e.getMessage());
    }
  }

  /** A zone id, UTC when blank; an unknown zone names the {@code timezone} field. */
  public static ZoneId zone(String timezone) {
    if (timezone == null || timezone.isBlank()) {
      return ZoneId.of("UTC");
    }
    try {
      return ZoneId.of(timezone.strip());
    } catch (DateTimeException e) {
      throw new InvalidScheduleException("timezone", "Unknown timezone \"" + timezone + "\" (use an IANA name such as Europe/Berlin)");
    }
  }

  /** The first firing strictly after {@code after}, as an instant; empty if it never fires again. */
  public Optional<Instant> nextAfter(Instant after) {
    return executionTime.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant);
  }

  /** The last firing at or before {@code atOrBefore}; empty if none. */
  public Optional<Instant> lastAtOrBefore(Instant atOrBefore) {
    ZonedDateTime at = atOrBefore.atZone(zone);
    if (executionTime.isMatch(at.withNano(0).withSecond(0)) && at.getSecond() == 0 && at.getNano() == 0) {
      return Optional.of(atOrBefore);
    }
    return executionTime.lastExecution(at).map(ZonedDateTime::toInstant);
  }

  public String expression() {
    return expression;
  }

  public ZoneId zone() {
    return zone;
  }
}
