package dev.threadline.core.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DockerfileTest {
  private static final Dockerfile DOCKERFILE =
      Dockerfile.parse(
          """
          # comment
          FROM eclipse-temurin:25-jdk AS build
          COPY target/image/jre-modules /tmp/jre-modules
          RUN jlink --add-modules "$(cat /tmp/jre-modules)" \\
                # a comment inside a continued instruction
                --output /opt/jre

          FROM debian:12-slim
          COPY --from=build /opt/jre /opt/jre
          COPY --chown=10001 target/image/lib target/image/bin /app/
          USER 10001:10001
          ENTRYPOINT ["java", "-cp", "/app/lib/*", "x.Main"]
          """);

  @Test
  void joinsContinuedLinesAndSkipsComments() {
    assertThat(DOCKERFILE.arguments("RUN"))
        .containsExactly("jlink --add-modules \"$(cat /tmp/jre-modules)\" --output /opt/jre");
    assertThat(DOCKERFILE.last("FROM")).isEqualTo("debian:12-slim");
    assertThat(DOCKERFILE.last("USER")).isEqualTo("10001:10001");
  }

  @Test
  void contextCopiesLeaveOutCopiesFromStagesAndFlags() {
    assertThat(DOCKERFILE.contextCopies())
        .containsExactly(
            new Dockerfile.ContextCopy(List.of("target/image/jre-modules"), "/tmp/jre-modules"),
            new Dockerfile.ContextCopy(List.of("target/image/lib", "target/image/bin"), "/app/"));
  }

  @Test
  void entrypointMustBeAnExecFormArray() {
    assertThat(DOCKERFILE.entrypoint()).containsExactly("java", "-cp", "/app/lib/*", "x.Main");
    assertThatThrownBy(() -> Dockerfile.parse("ENTRYPOINT java -jar x.jar").entrypoint())
        .hasMessageContaining("not in exec form");
  }
}
