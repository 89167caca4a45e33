package dev.threadline.core.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadLimitTest {
  @Test
  void defaultsWhenUnset() {
    assertThat(ThreadLimit.fromEnvironment(Map.of())).isEqualTo(ThreadLimit.DEFAULT);
    assertThat(ThreadLimit.fromEnvironment(Map.of(ThreadLimit.VARIABLE, " ")))
        .isEqualTo(ThreadLimit.DEFAULT);
  }

  @Test
  void readsTheVariable() {
    assertThat(ThreadLimit.fromEnvironment(Map.of(ThreadLimit.VARIABLE, " 7 "))).isEqualTo(7);
  }

  @Test
  void refusesNonsenseNamingTheVariable() {
    assertThatThrownBy(() -> ThreadLimit.fromEnvironment(Map.of(ThreadLimit.VARIABLE, "many")))
        .hasMessageContaining(ThreadLimit.VARIABLE);
    assertThatThrownBy(() -> ThreadLimit.fromEnvironment(Map.of(ThreadLimit.VARIABLE, "0")))
        .hasMessageContaining("at least 1");
  }
}
