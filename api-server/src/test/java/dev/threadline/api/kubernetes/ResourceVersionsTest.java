package dev.threadline.api.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceVersionsTest {
  @Test
  void numericVersionsCompareAsNumbers() {
    assertThat(ResourceVersions.isAtLeast("10", "9")).isTrue();
    assertThat(ResourceVersions.isAtLeast("9", "10")).isFalse();
    assertThat(ResourceVersions.isAtLeast("10", "10")).isTrue();
  }

  @Test
  void opaqueVersionsOnlyMatchWhenEqual() {
    assertThat(ResourceVersions.isAtLeast("abc", "abc")).isTrue();
    assertThat(ResourceVersions.isAtLeast("abd", "abc")).isFalse();
    assertThat(ResourceVersions.isAtLeast(null, "1")).isFalse();
  }
}
