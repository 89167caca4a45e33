package dev.threadline.api.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RateLimitTest {
  @Test
  void readsBurstAndPerMinute() {
    assertThat(RateLimit.parse(" 20 / 60 ")).isEqualTo(new RateLimit(20, 60));
  }

  @ParameterizedTest
  @ValueSource(strings = {"20", "20/", "/60", "a/b", "1/2/3"})
  void malformedLimitsAreRefusedWithTheExpectedShape(String text) {
    assertThatThrownBy(() -> RateLimit.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("20/60");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0/60", "20/0"})
  void aLimitThatWouldRefuseEverythingIsRefused(String text) {
    assertThatThrownBy(() -> RateLimit.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
