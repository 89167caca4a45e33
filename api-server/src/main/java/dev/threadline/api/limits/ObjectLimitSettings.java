package dev.threadline.api.limits;

import dev.threadline.core.limits.ThreadLimit;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Per-user object limits and the shortest schedule interval; properties {@code
 * threadline.limits.*}, i.e. the environment variables {@code THREADLINE_LIMITS_THREADS} (default
 * 2000), {@code THREADLINE_LIMITS_RUNS} (20000), {@code THREADLINE_LIMITS_CONTAINERS} (50), {@code
 * THREADLINE_LIMITS_SCHEDULES} (200), {@code THREADLINE_LIMITS_IDEMPOTENCYRECORDS} (5000) and
 * {@code THREADLINE_LIMITS_MINSCHEDULEINTERVAL} (default 60s). See docs/limits.md.
 */
@ConfigurationProperties("threadline.limits")
public record ObjectLimitSettings(
    Integer threads,
    Integer runs,
    Integer containers,
    Integer schedules,
    Integer idempotencyRecords,
    Duration minScheduleInterval) {

  public ObjectLimitSettings {
    threads = threads == null ? ThreadLimit.DEFAULT : threads;
    runs = runs == null ? 20_000 : runs;
    containers = containers == null ? 50 : containers;
    schedules = schedules == null ? 200 : schedules;
    idempotencyRecords = idempotencyRecords == null ? 5000 : idempotencyRecords;
    minScheduleInterval =
        minScheduleInterval == null ? Duration.ofSeconds(60) : minScheduleInterval;
    if (minScheduleInterval.isNegative()) {
      throw new IllegalArgumentException("minScheduleInterval must not be negative");
    }
    // fail at start-up on nonsense (the fields are assigned only after this constructor body)
    for (int max : new int[] {threads, runs, containers, schedules, idempotencyRecords}) {
      new ObjectLimit("objects", max);
    }
  }

  public ObjectLimit threadLimit() {
    return new ObjectLimit("threads", threads);
  }

  public ObjectLimit runLimit() {
    return new ObjectLimit("runs", runs);
  }

  public ObjectLimit containerLimit() {
    return new ObjectLimit("containers", containers);
  }

  public ObjectLimit scheduleLimit() {
    return new ObjectLimit("schedules", schedules);
  }

  public ObjectLimit idempotencyRecordLimit() {
    return new ObjectLimit("idempotency records", idempotencyRecords);
  }
}
