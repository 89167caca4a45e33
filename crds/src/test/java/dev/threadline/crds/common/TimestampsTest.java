package dev.threadline.crds.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimestampsTest {
  @Test
  void formatsInUtcWithZ() {
    assertThat(Timestamps.format(Instant.parse("2026-01-02T03:04:05.678912Z")))
        .isEqualTo("2026-01-02T03:04:05.678Z");
  }

  @Test
  void normalisesOffsetsToUtc() {
    assertThat(Timestamps.normalize("2026-01-02T05:04:05+02:00")).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(Timestamps.normalize(null)).isNull();
    assertThat(Timestamps.parse("not a time")).isEmpty();
  }
}
