package dev.threadline.operator.environment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BuildNamesTest {
  private static final String HASH = "0123456789abcdef";

  @Test
  void namesAJobAfterItsEnvironmentKindHashAndRequest() {
    assertThat(BuildNames.job("env-abc", BuildKind.IMAGE, HASH, "r1"))
        .isEqualTo("env-abc-build-" + HASH + "-r1");
    assertThat(BuildNames.job("env-abc", BuildKind.TEST, HASH, "r1"))
        .isEqualTo("env-abc-test-" + HASH + "-r1");
  }

  @Test
  void shortensLongEnvironmentNamesToFitALabelValueWithoutATrailingDash() {
    String name =
        BuildNames.job(
            "env-" + "a".repeat(26) + "-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
            BuildKind.IMAGE,
            HASH,
            "k3j9a2x1");

    assertThat(name)
        .hasSizeLessThanOrEqualTo(63)
        .endsWith("-build-" + HASH + "-k3j9a2x1")
        .doesNotContain("--");
  }
}
