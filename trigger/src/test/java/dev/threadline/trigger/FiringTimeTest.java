package dev.threadline.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FiringTimeTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-05-04T10:17:42.5Z"), ZoneOffset.UTC);

  @Test
  void theCronJobsJobNameSaysWhichMinuteFired() {
    FiringTime.Resolved resolved =
        FiringTime.resolve(
            "sched-a", Map.of("THREADLINE_TRIGGER_JOB_NAME", "sched-a-29412345"), CLOCK);

    assertThat(resolved.instant()).isEqualTo(Instant.ofEpochSecond(29412345L * 60));
    assertThat(resolved.source()).isEqualTo("job sched-a-29412345");
  }

  @Test
  void anExplicitFiringTimeWins() {
    FiringTime.Resolved resolved =
        FiringTime.resolve(
            "sched-a",
            Map.of(
                "THREADLINE_FIRING_TIME", "2026-05-04T09:00:00+02:00",
                "THREADLINE_TRIGGER_JOB_NAME", "sched-a-29412345"),
            CLOCK);

    assertThat(resolved.instant()).isEqualTo(Instant.parse("2026-05-04T07:00:00Z"));
  }

  @Test
  void aJobMadeByHandFallsBackToTheCurrentMinute() {
    assertThat(
            FiringTime.resolve(
                    "sched-a", Map.of("THREADLINE_TRIGGER_JOB_NAME", "manual-run"), CLOCK)
                .instant())
        .isEqualTo(Instant.parse("2026-05-04T10:17:00Z"));
    // Another CronJob's name that merely starts alike is not ours.
    assertThat(FiringTime.fromJobName("sched-a", "sched-ab-29412345")).isEmpty();
    assertThat(FiringTime.fromJobName("sched-a", "sched-a-manual")).isEmpty();
    assertThat(FiringTime.resolve("sched-a", Map.of(), CLOCK).source())
        .isEqualTo("the current minute");
  }

  @Test
  void aMalformedExplicitTimeIsRefused() {
    assertThatThrownBy(() ->
            FiringTime.resolve("sched-a", Map.of("THREADLINE_FIRING_TIME", "tomorrow"), CLOCK))
        .hasMessageContaining("THREADLINE_FIRING_TIME must be an ISO 8601 instant");
  }
}
