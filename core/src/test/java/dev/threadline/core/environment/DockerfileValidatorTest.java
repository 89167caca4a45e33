package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class DockerfileValidatorTest {

  @Test
  void acceptsAGoodMultiLineExtension() {
    var extensions =
        """
        # Extra tools for the agent
        ARG TOOL_VERSION=1.2.3
        ENV LANG=C.UTF-8 \\
            EDITOR="vim -n"

        RUN apt-get update \\
            # comments inside a continued RUN are dropped by the parser
         && apt-get install -y jq \\
         && rm -rf /var/lib/apt/lists/*
        RUN --mount=type=cache,target=/root/.cache pip install uv
        RUN <<EOF
        set -e
        FOO this line is heredoc content, not an instruction
        EOF
        COPY --from=docker.io/library/busybox:1.36 /bin/busybox /usr/local/bin/busybox
        COPY <<-CONFIG /etc/tool.conf
        \tkey=value
        \tCONFIG
        ADD https://example.com/tool.tar.gz /opt/
        LABEL org.opencontainers.image.title="agent env" team=platform
        EXPOSE 8080/tcp 9000-9010
        WORKDIR /opt/tool
        USER nobody
        VOLUME ["/data"]
        HEALTHCHECK --interval=30s CMD curl -f http://localhost:8080/ || exit 1
        STOPSIGNAL SIGTERM
        SHELL ["/bin/bash", "-c"]
        """;
    var result = DockerfileValidator.validate(extensions);
    assertThat(result.valid()).as(String.join("\n", result.warnings())).isTrue();
    // SHELL is allowed but warned about: it changes the shell of the generated steps after it.
    assertThat(result.warnings())
        .containsExactly(
            "line 27: SHELL also applies to the setup scripts and runner steps after the"
                + " extensions, which expect a POSIX shell");
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"  \n\n", "# only a comment\n"})
  void nothingToCheckIsValid(String extensions) {
    assertThat(DockerfileValidator.validate(extensions))
        .isEqualTo(new ValidationResult(true, List.of()));
  }

  @Test
  void unknownInstructionIsInvalidAndReportsItsStartingLine() {
    var extensions =
        """
        # comment
        RUN echo a \\
          && echo b

        apt-get install -y curl
        """;
    var result = DockerfileValidator.validate(extensions);
    assertThat(result.valid()).isFalse();
    assertThat(result.warnings())
        .containsExactly(
            "line 5: unknown instruction \"apt-get\" (shell commands go in a RUN instruction)");
  }

  @Test
  void lineNumbersCountCrlfLinesToo() {
    var result = DockerfileValidator.validate("RUN true\r\n\r\nBOGUS x\r\n");
    assertThat(result.warnings()).singleElement().asString().startsWith("line 3: unknown");
  }

  @Test
  void fromWarnsThatItDropsEverythingBeforeIt() {
    var result = DockerfileValidator.validate("RUN true\nFROM node:22 AS tools\n");
    assertThat(result.valid()).isTrue();
    assertThat(result.warnings())
        .singleElement()
        .asString()
        .startsWith("line 2: FROM starts a new build stage")
        .contains("left out of the final image");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ENTRYPOINT [\"/bin/app\"]", "CMD echo hi", "entrypoint /bin/app"})
  void entrypointAndCmdWarnThatTheRunnerOverridesThem(String line) {
    var result = DockerfileValidator.validate(line);
    assertThat(result.valid()).isTrue();
    assertThat(result.warnings())
        .singleElement()
        .asString()
        .startsWith("line 1: ")
        .contains("has no effect: the image's entrypoint is the Threadline runner");
  }

  @ParameterizedTest
  @ValueSource(strings = {"USER root", "USER 0", "USER root:root", "user 0:0"})
  void userRootWarnsThatTheRunnerResetsTheUser(String line) {
    var result = DockerfileValidator.validate(line);
    assertThat(result.valid()).isTrue();
    assertThat(result.warnings())
        .singleElement()
        .asString()
        .contains("runner section resets the user")
        .contains("10001");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "MAINTAINER me@example.com | MAINTAINER is deprecated",
        "ENV KEY value | legacy form",
        "COPY app.py /app/ | the context holds only the generated Dockerfile",
        "ADD ./vendor /opt/vendor | the context holds only the generated Dockerfile",
        "ONBUILD RUN make | ONBUILD runs only in images built FROM this one",
      })
  void warningsKeepTheExtensionValid(String line, String warning) {
    var result = DockerfileValidator.validate(line);
    assertThat(result.valid()).isTrue();
    assertThat(result.warnings())
        .singleElement()
        .asString()
        .startsWith("line 1: ")
        .contains(warning);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "RUN | RUN requires at least one argument",
        "WORKDIR | WORKDIR requires at least one argument",
        "ENV FOO | ENV \"FOO\" needs a value",
        "ENV A=1 B | ENV expects key=value pairs",
        "LABEL =x | LABEL expects key=value pairs",
        "ENV A=\"unterminated | unterminated quote",
        "CMD [\"a\", 'b'] | CMD has a malformed JSON array",
        "RUN [\"echo\" \"a\"] | RUN has a malformed JSON array",
        "RUN [] | RUN needs a command",
        "SHELL /bin/bash -c | SHELL must be a JSON array",
        "EXPOSE http | EXPOSE expects port",
        "EXPOSE 70000 | EXPOSE expects port",
        "ARG 1BAD=x | ARG has an invalid name",
        "USER a b | USER takes exactly one argument",
        "COPY onlyone | COPY needs at least a source and a destination",
        "HEALTHCHECK --interval=5s | HEALTHCHECK has flags but nothing to act on",
        "HEALTHCHECK curl localhost | HEALTHCHECK takes NONE or CMD",
        "RUN --privileged echo | unknown flag --privileged for RUN",
        "FROM a b | FROM takes an image and an optional AS name",
        "ONBUILD FROM x | ONBUILD cannot trigger FROM",
        "ONBUILD BOGUS x | ONBUILD has an unknown instruction",
      })
  void malformedArgumentsMakeTheExtensionInvalid(String line, String error) {
    var result = DockerfileValidator.validate("# first line\n" + line + "\n");
    assertThat(result.valid()).isFalse();
    assertThat(result.warnings())
        .anySatisfy(w -> assertThat(w).startsWith("line 2: ").contains(error));
  }

  @Test
  void trailingContinuationIsAnErrorBecauseItWouldSwallowTheNextGeneratedLine() {
    var result = DockerfileValidator.validate("RUN echo a \\\n  && echo b \\\n\n# trailing\n");
    assertThat(result.valid()).isFalse();
    assertThat(result.warnings())
        .containsExactly(
            "line 2: line continuation (trailing \\) at the end of the extensions would swallow the"
                + " next generated instruction");
  }

  @Test
  void unclosedHeredocIsAnError() {
    var result = DockerfileValidator.validate("RUN <<EOF\necho a\nEOFX\n");
    assertThat(result.valid()).isFalse();
    assertThat(result.warnings())
        .containsExactly("line 1: heredoc <<EOF is never closed (expected a line EOF)");
  }

  @Test
  void findingsAreOrderedByLineAcrossErrorsAndWarnings() {
    var result = DockerfileValidator.validate("FROM x\nBOGUS\nUSER root\nENV Y\n");
    assertThat(result.valid()).isFalse();
    assertThat(result.warnings())
        .extracting(w -> w.substring(0, 7))
        .containsExactly("line 1:", "line 2:", "line 3:", "line 4:");
  }
}
