package dev.threadline.core.environment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BuildErrorsTest {

  @Test
  void contractMessagesAreExact() {
    assertThat(BuildErrors.DOCKERFILE_SYNTAX_ERROR).isEqualTo("Dockerfile syntax error");
    assertThat(BuildErrors.PACKAGE_NOT_FOUND).isEqualTo("Package not found");
    assertThat(BuildErrors.BUILD_TIMEOUT).isEqualTo("Build timeout");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "error building image: parsing dockerfile: dockerfile parse error line 7: unknown"
            + " instruction: BOGUS | Dockerfile syntax error",
        "ERROR: failed to solve: dockerfile parse error on line 3: unknown instruction: apt-get |"
            + " Dockerfile syntax error",
        "error parsing dockerfile: file with no instructions | Dockerfile syntax error",
        "Error: WORKDIR requires exactly one argument | Dockerfile syntax error",
        "E: Unable to locate package libfoo-dev | Package not found",
        "E: Package 'python' has no installation candidate | Package not found",
        "E: Version '9.9' for 'curl' was not found | Package not found",
        "ERROR: Could not find a version that satisfies the requirement reqeusts==9.9 (from"
            + " versions: none) | Package not found",
        "ERROR: No matching distribution found for reqeusts | Package not found",
        "npm ERR! code E404 | Package not found",
        "npm ERR! 404 Not Found - GET https://registry.npmjs.org/typescrpt - Not found | Package"
            + " not found",
        "npm error code E404 | Package not found",
        "npm error code ETARGET | Package not found",
        "npm error notarget No matching version found for typescript@99.0.0. | Package not found",
      })
  void classifiesKanikoAptPipAndNpmFailures(String logLine, String expected) {
    var log =
        "INFO[0001] Retrieving image manifest\nINFO[0002] RUN step\n"
            + logLine
            + "\nerror building image\n";
    assertThat(BuildErrors.classify(log, false)).hasValue(expected);
  }

  @Test
  void timeoutWinsWhateverTheLogSays() {
    assertThat(BuildErrors.classify("E: Unable to locate package x", true))
        .hasValue("Build timeout");
    assertThat(BuildErrors.classify(null, true)).hasValue("Build timeout");
  }

  @Test
  void theFirstFailureInTheLogIsTheCause() {
    var log = "E: Unable to locate package nope\n... later ...\nunknown instruction: FOO\n";
    assertThat(BuildErrors.classify(log, false)).hasValue("Package not found");
  }

  @Test
  void unrecognisedOrEmptyLogsAreLeftToTheCaller() {
    assertThat(BuildErrors.classify("error: exit code 137 (OOMKilled)", false)).isEmpty();
    assertThat(BuildErrors.classify("mkdir: requires at least one argument", false)).isEmpty();
    assertThat(BuildErrors.classify("", false)).isEmpty();
    assertThat(BuildErrors.classify(null, false)).isEmpty();
  }
}
