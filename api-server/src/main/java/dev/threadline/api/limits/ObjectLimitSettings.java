package dev.threadline.api.limits;

import dev.threadline.core.limits.ThreadLimit;
import dev.threadline.history.History;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Per-user object limits and the shortest schedule interval; properties {@code
 * threadline.limits.*}, i.e. the environment variables {@code THREADLINE_LIMITS_THREADS} (default
 * 2000), {@code THREADLINE_LIMITS_RUNS} (20000), {@code THREADLINE_LIMITS_CONTAINERS} (50), {@code
 * THREADLINE_LIMITS_SCHEDULES} (200), {@code THREADLINE_LIMITS_IDEMPOTENCYRECORDS} (5000) and
 * {@code THREADLINE_LIMITS_MINSCHEDULEINTERVAL} (default 60s), and the bytes of conversation
 * history a user may keep, {@code THREADLINE_LIMITS_HISTORYBYTES} (default 1GB, i.e. 1 GiB; a
 * number of bytes or a size such as {@code 512MB}), and the messages that may wait for a busy
 * thread ({@code multitaskStrategy: enqueue}), {@code THREADLINE_LIMITS_QUEUEDMESSAGES} (default 10
 * per thread). See docs/limits.md.
 */
@ConfigurationProperties("threadline.limits")
public record ObjectLimitSettings(
    Integer threads,
    Integer runs,
    Integer containers,
    Integer schedules,
    Integer idempotencyRecords,
    Duration minScheduleInterval,
    DataSize historyBytes,
    Integer queuedMessages) {

  public ObjectLimitSettings {
    threads = threads == null ? ThreadLimit.DEFAULT : threads;
    runs = runs == null ? 20_000 : runs;
    containers = containers == null ? 50 : containers;
    schedules = schedules == null ? 200 : schedules;
    idempotencyRecords = idempotencyRecords == null ? 5000 : idempotencyRecords;
    minScheduleInterval =
        minScheduleInterval == null ? Duration.ofSeconds(60) : minScheduleInterval;
    historyBytes = historyBytes == null ? DataSize.ofGigabytes(1) : historyBytes;
    queuedMessages = queuedMessages == null ? 10 : queuedMessages;
    if (historyBytes.toBytes() < 1) {
      throw new IllegalArgumentException("historyBytes must be at least 1 byte: " + historyBytes);
    }
    if (minScheduleInterval.isNegative()) {
      throw new IllegalArgumentException("minScheduleInterval must not be negative");
    }
    // fail at start-up on nonsense (the fields are assigned only after this constructor body)
    for (int max :
        new int[] {threads, runs, containers, schedules, idempotencyRecords, queuedMessages}) {
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

  public HistoryQuota historyQuota(History history) {
    return new HistoryQuota(history, historyBytes.toBytes());
  }

  public ObjectLimit idempotencyRecordLimit() {
    return new ObjectLimit("idempotency records", idempotencyRecords);
  }
}
