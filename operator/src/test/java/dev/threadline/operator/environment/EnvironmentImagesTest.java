package dev.threadline.operator.environment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EnvironmentImagesTest {
  private static final String DIGEST = "sha256:" + "0f".repeat(32);

  @Test
  void eachTenantHasItsOwnPathAndCache() {
    assertThat(EnvironmentImages.destination("reg.example.com:5000/tl/", "alice", "env-web:abc"))
        .isEqualTo("reg.example.com:5000/tl/alice/env-web:abc");
    assertThat(EnvironmentImages.cacheRepository("reg.example.com/tl", "bob"))
        .isEqualTo("reg.example.com/tl/bob/cache");
    assertThat(EnvironmentImages.cacheRepository("", "bob")).isNull();
  }

  @Test
  void agentsRunTheImageByDigestWhenTheBuildReportedOne() {
    assertThat(
            EnvironmentImages.runnable("reg.example.com:5000/tl", "alice", "env-web:abc", DIGEST))
        .isEqualTo("reg.example.com:5000/tl/alice/env-web@" + DIGEST);
    assertThat(EnvironmentImages.runnable("reg.example.com:5000/tl", "alice", "env-web:abc", null))
        .isEqualTo("reg.example.com:5000/tl/alice/env-web:abc");
  }

  @Test
  void theDigestIsReadFromThePushedReference() {
    assertThat(BuildDigests.of("reg.example.com/tl/alice/env-web@" + DIGEST + "\n"))
        .contains(DIGEST);
    assertThat(BuildDigests.of("reg.example.com/tl/alice/env-web:abc\n")).isEmpty();
    assertThat(BuildDigests.of("x@sha256:" + "0".repeat(65))).isEmpty();
  }
}
