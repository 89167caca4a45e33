package dev.threadline.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CronScheduleTest {
  @ParameterizedTest(name = "{0} in {1} after {2} -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0 9 * * 1-5  | UTC              | 2026-11-20T10:00:00Z | 2026-11-23T09:00:00Z
          */2 * * * *  | UTC              | 2026-11-21T10:01:30Z | 2026-11-21T10:02:00Z
          0 0,12 * * * | UTC              | 2026-11-21T00:00:00Z | 2026-11-21T12:00:00Z
          30 8 1 * *   | UTC              | 2026-11-21T00:00:00Z | 2026-12-01T08:30:00Z
          0 10 * * 0   | UTC              | 2026-11-21T00:00:00Z | 2026-11-22T10:00:00Z
          0 9 * * *    | America/New_York | 2026-11-21T00:00:00Z | 2026-11-21T14:00:00Z
          0 9 * * *    | America/New_York | 2026-07-01T00:00:00Z | 2026-07-01T13:00:00Z
          """)
  void nextFiringInTheSchedulesZoneReturnedInUtc(
      String cron, String zone, String after, String next) {
    assertThat(CronSchedule.parse(cron, zone).nextAfter(Instant.parse(after)))
        .contains(Instant.parse(next));
  }

  @Test
  void springForwardSkipsTheMissingHourWithoutFiringTwice() {
    // 2026-03-08 02:30 does not exist in New York: clocks jump from 02:00 to 03:00 EST->EDT.
    CronSchedule schedule = CronSchedule.parse("30 2 * * *", "America/New_York");
    Instant afterMarch7 = schedule.nextAfter(Instant.parse("2026-03-07T08:00:00Z")).orElseThrow();
    Instant following = schedule.nextAfter(afterMarch7).orElseThrow();
    assertThat(following).isAfter(afterMarch7.plusSeconds(12 * 3600));
    assertThat(schedule.nextAfter(Instant.parse("2026-03-09T00:00:00Z")))
        .contains(Instant.parse("2026-03-09T06:30:00Z"));
  }

  @Test
  void fallBackFiresOnceForTheRepeatedHour() {
    // 2026-11-01 01:30 happens twice in New York (EDT then EST).
    CronSchedule schedule = CronSchedule.parse("30 1 * * *", "America/New_York");
    Instant first = schedule.nextAfter(Instant.parse("2026-11-01T04:00:00Z")).orElseThrow();
    Instant second = schedule.nextAfter(first).orElseThrow();
    assertThat(second).isAfterOrEqualTo(Instant.parse("2026-11-02T00:00:00Z"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "* * * *",
        "* * * * * *",
        "61 * * * *",
        "* 24 * * *",
        "* * 32 * *",
        "* * * 13 *",
        "every day",
        "*/0 * * * *"
      })
  void invalidExpressionsNameTheField(String cron) {
    assertThatThrownBy(() -> CronSchedule.parse(cron, "UTC"))
        .isInstanceOfSatisfying(
            InvalidScheduleException.class, e -> assertThat(e.field()).isEqualTo("cronExpression"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0 0 31 2 *", "0 0 30 2 *", "0 0 31 4,6,9,11 *"})
  void expressionsThatNeverFireAreRefusedNamingTheField(String cron) {
    assertThatThrownBy(() -> CronSchedule.parse(cron, "Europe/Berlin"))
        .isInstanceOfSatisfying(
            InvalidScheduleException.class,
            e -> {
              assertThat(e.field()).isEqualTo("cronExpression");
              assertThat(e.getMessage()).contains("never fires");
            });
  }

  @Test
  void rareButRealDatesAreAccepted() {
    assertThat(
            CronSchedule.parse("0 0 29 2 *", "UTC")
                .nextAfter(Instant.parse("2026-12-01T00:00:00Z")))
        .contains(Instant.parse("2028-02-29T00:00:00Z"));
    assertThat(
            CronSchedule.parse("0 0 31 12 *", "UTC")
                .nextAfter(Instant.parse("2026-12-01T00:00:00Z")))
        .contains(Instant.parse("2026-12-31T00:00:00Z"));
  }

  @Test
  void missingExpressionAndUnknownZoneNameTheirFields() {
    assertThatThrownBy(() -> CronSchedule.parse(" ", "UTC"))
        .isInstanceOfSatisfying(
            InvalidScheduleException.class, e -> assertThat(e.field()).isEqualTo("cronExpression"));
    assertThatThrownBy(() -> CronSchedule.parse("* * * * *", "Mars/Olympus"))
        .isInstanceOfSatisfying(
            InvalidScheduleException.class, e -> assertThat(e.field()).isEqualTo("timezone"));
  }

  @Test
  void blankZoneMeansUtc() {
    assertThat(CronSchedule.parse("0 0 * * *", null).zone().getId()).isEqualTo("UTC");
  }

  @Test
  void berlinNineOClockFollowsTheDaylightSavingSwitch() {
    CronSchedule schedule = CronSchedule.parse("0 9 * * *", "Europe/Berlin");
    // CET (UTC+1) before the switch on 29 March 2026, CEST (UTC+2) after it.
    assertThat(schedule.nextAfter(Instant.parse("2026-03-27T12:00:00Z")))
        .contains(Instant.parse("2026-03-28T08:00:00Z"));
    assertThat(schedule.nextAfter(Instant.parse("2026-03-28T12:00:00Z")))
        .contains(Instant.parse("2026-03-29T07:00:00Z"));
  }

  @Test
  void mostRecentIsTheLatestDueFiringAfterTheEarliestOnly() {
    CronSchedule schedule = CronSchedule.parse("*/5 * * * *", null);
    Instant now = Instant.parse("2026-05-01T10:07:30Z");
    assertThat(schedule.mostRecent(Instant.parse("2026-05-01T09:00:00Z"), now))
        .contains(Instant.parse("2026-05-01T10:05:00Z"));
    assertThat(schedule.mostRecent(Instant.parse("2026-05-01T10:05:00Z"), now)).isEmpty();
    assertThat(
            schedule.mostRecent(
                Instant.parse("2026-05-01T09:00:00Z"), Instant.parse("2026-05-01T10:05:00Z")))
        .contains(Instant.parse("2026-05-01T10:05:00Z"));
  }

  @Test
  void cronJobSchedulesAcceptMacrosButContractExpressionsDoNot() {
    assertThat(
            CronSchedule.parseCronJob("@hourly", "UTC")
                .nextAfter(Instant.parse("2026-05-01T10:07:30Z")))
        .contains(Instant.parse("2026-05-01T11:00:00Z"));
    assertThatThrownBy(() -> CronSchedule.parse("@hourly", "UTC"))
        .isInstanceOf(InvalidScheduleException.class);
  }
}
