package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HumanDurationTest {

  /** The same cuts as apimachinery's duration.HumanDuration. */
  @ParameterizedTest
  @CsvSource({
    "-5, <invalid>",
    "-1, 0s",
    "0, 0s",
    "119, 119s",
    "120, 2m",
    "185, 3m5s",
    "600, 10m",
    "10799, 179m",
    "10800, 3h",
    "11100, 3h5m",
    "28800, 8h",
    "172799, 47h",
    "172800, 2d",
    "180000, 2d2h",
    "691200, 8d",
    "63072000, 2y",
    "66528000, 2y40d",
    "252460800, 8y"
  })
  void printsAgesLikeKubernetes(long seconds, String expected) {
    assertThat(HumanDuration.of(Duration.ofSeconds(seconds))).isEqualTo(expected);
  }

  @Test
  void readsRfc3339Timestamps() {
    Instant now = Instant.parse("2026-01-01T01:00:00Z");

    assertThat(HumanDuration.since("2026-01-01T00:55:00Z", now)).isEqualTo("5m");
    assertThat(HumanDuration.since("not a date", now)).isEqualTo("<unknown>");
  }
}
