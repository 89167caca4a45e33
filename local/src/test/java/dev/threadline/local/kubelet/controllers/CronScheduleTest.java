package dev.threadline.local.kubelet.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronScheduleTest {
  @Test
  void nineOClockInBerlinFollowsTheDaylightSavingSwitch() {
    CronSchedule schedule = CronSchedule.parse("0 9 * * *", "Europe/Berlin");

    // CET (UTC+1) before the switch on 29 March 2026, CEST (UTC+2) after it.
    assertThat(schedule.next(Instant.parse("2026-03-27T12:00:00Z"))).contains(Instant.parse("2026-03-28T08:00:00Z"));
    assertThat(schedule.next(Instant.parse("2026-03-28T12:00:00Z"))).contains(Instant.parse("2026-03-29T07:00:00Z"));
  }

  @Test
  void mostRecentIsTheLatestDueTimeAfterTheEarliestOnly() {
    CronSchedule schedule = CronSchedule.parse("*/5 * * * *", null);
    Instant now = Instant.parse("2026-05-01T10:07:30Z");

    assertThat(schedule.mostRecent(Instant.parse("2026-05-01T09:00:00Z"), now)).contains(Instant.parse("2026-05-01T10:05:00Z"));
    assertThat(schedule.mostRecent(Instant.parse("2026-05-01T10:05:00Z"), now)).isEmpty();
    assertThat(schedule.mostRecent(Instant.parse("2026-05-01T09:00:00Z"), Instant.parse("2026-05-01T10:05:00Z")))
        .contains(Instant.parse("2026-05-01T10:05:00Z"));
  }

  @Test
  void macrosAndErrors() {
    assertThat(CronSchedule.parse("@hourly", "UTC").next(Instant.parse("2026-05-01T10:07:30Z")))
        .contains(Instant.parse("2026-05-01T11:00:00Z"));
    assertThatThrownBy(() -> CronSchedule.parse("61 * * * *", null)).hasMessageContaining("invalid schedule \"61 * * * *\"");
    assertThatThrownBy(() -> CronSchedule.parse("* * * * *", "Mars/Base")).hasMessageContaining("unknown time zone \"Mars/Base\"");
  }
}
