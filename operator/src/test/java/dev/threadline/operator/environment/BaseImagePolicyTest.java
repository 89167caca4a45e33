package dev.threadline.operator.environment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BaseImagePolicyTest {
  private static final BaseImagePolicy POLICY =
      new BaseImagePolicy(
          List.of("docker.io/library/*", "ghcr.io/acme/base", "quay.io/tools/kit:2"),
          List.of("ghcr.io/threadline/runner:1.0"));

  @Test
  void entriesAllowByPrefixByRepositoryOrExactly() {
    assertThat(POLICY.isAllowed("ubuntu:24.04")).isTrue();
    assertThat(POLICY.isAllowed("docker.io/library/python:3.12")).isTrue();
    assertThat(POLICY.isAllowed("index.docker.io/library/debian")).isTrue();
    assertThat(POLICY.isAllowed("ghcr.io/acme/base:7")).isTrue();
    assertThat(POLICY.isAllowed("ghcr.io/acme/base@sha256:" + "a".repeat(64))).isTrue();
    assertThat(POLICY.isAllowed("quay.io/tools/kit:2")).isTrue();
    assertThat(POLICY.isAllowed("ghcr.io/threadline/runner:1.0")).isTrue();

    assertThat(POLICY.isAllowed("quay.io/tools/kit:3")).isFalse();
    assertThat(POLICY.isAllowed("ghcr.io/acme/base-evil")).isFalse();
    assertThat(POLICY.isAllowed("someone/ubuntu")).isFalse(); // docker.io/someone/ubuntu
    assertThat(POLICY.isAllowed("ghcr.io/threadline/runner:2.0")).isFalse();
    assertThat(POLICY.isAllowed("${BASE}")).isFalse();
  }

  @Test
  void theDockerfilesPullsAreItsFromAndCopyFromImagesButNotItsStages() {
    String dockerfile =
        """
        # a comment
        FROM --platform=linux/amd64 ubuntu:24.04 AS base
        RUN echo hi
        COPY --from=ghcr.io/threadline/runner:1.0 /opt/threadline /opt/threadline
        FROM base AS second
        COPY --from=base /a /b
        COPY --from=0 /c /d
        COPY --chown=1:1 \\
          --from=quay.io/tools/kit:3 /kit /kit
        FROM scratch
        """;

    assertThat(BaseImagePolicy.pulledImages(dockerfile))
        .containsExactly("ubuntu:24.04", "ghcr.io/threadline/runner:1.0", "quay.io/tools/kit:3");
    assertThat(POLICY.refusal(dockerfile))
        .contains(
            "Base image not allowed: quay.io/tools/kit:3 is not in the build allow-list"
                + " (docker.io/library/*, ghcr.io/acme/base, quay.io/tools/kit:2)");
  }

  @Test
  void anAllowedDockerfileHasNoRefusal() {
    assertThat(POLICY.refusal("FROM python:3.12\nRUN pip install x\n")).isEmpty();
  }

  @Test
  void aStarAloneAllowsEverything() {
    assertThat(new BaseImagePolicy(List.of("*"), List.of()).isAllowed("any.registry/x/y:z"))
        .isTrue();
  }
}
