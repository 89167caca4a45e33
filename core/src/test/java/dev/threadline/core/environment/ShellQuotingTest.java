package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShellQuotingTest {

  @Test
  void wrapsInSingleQuotes() {
    assertThat(ShellQuoting.quote("requests==2.32.3")).isEqualTo("'requests==2.32.3'");
    assertThat(ShellQuoting.quote("")).isEqualTo("''");
  }

  @Test
  void closesReopensAroundAnEmbeddedSingleQuote() {
    assertThat(ShellQuoting.quote("it's")).isEqualTo("'it'\\''s'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\nRUN evil", "a\rb", "nul\0"})
  void refusesWhatWouldEndTheDockerfileLine(String value) {
    assertThatThrownBy(() -> ShellQuoting.quote(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line break or NUL");
  }

  /** The real proof: a POSIX shell reads each quoted value back as exactly one, unchanged word. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "plain",
        "it's",
        "''''",
        "$(touch pwned)",
        "`touch pwned`",
        "${HOME} $PATH",
        "a; touch pwned",
        "a && touch pwned | cat > x",
        "back\\slash \\' end",
        "!history *glob ?x [a-z] ~user",
        "--option=value"
      })
  void aShellReadsTheQuotedValueBackUnchanged(String value) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh");
    var dir = Files.createTempDirectory("quoting");
    var process =
        new ProcessBuilder("/bin/sh", "-c", "printf '%s|' " + ShellQuoting.quote(value))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    var out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).isZero();
    assertThat(out).isEqualTo(value + "|");
    try (var files = Files.list(dir)) {
      assertThat(files).as("nothing was executed").isEmpty();
    }
    Files.delete(dir);
  }
}
