package dev.threadline.core.environment;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The contract's build error messages ({@code buildError}, and the test build's {@code error}), and
 * the mapping from a failed build's log to one of them.
 */
public final class BuildErrors {

  public static final String DOCKERFILE_SYNTAX_ERROR = "Dockerfile syntax error";
  public static final String PACKAGE_NOT_FOUND = "Package not found";
  public static final String BUILD_TIMEOUT = "Build timeout";

  private record Signature(Pattern pattern, String message) {}

  // Kaniko and BuildKit parser errors, then apt, pip and npm reports of a missing package.
  private static final List<Signature> SIGNATURES =
      List.of(
          syntax("dockerfile parse error"),
          syntax("(error )?parsing dockerfile"),
          syntax("unknown instruction"),
          syntax("unterminated heredoc"),
          syntax("Syntax error - can't find = in"),
          syntax("ENV names can not be blank"),
          instructionArity(),
          missing("E: Unable to locate package"),
          missing("E: Package '[^']*' has no installation candidate"),
          missing("E: Version '[^']*' for '[^']*' was not found"),
          missing("No matching distribution found for"),
          missing("Could not find a version that satisfies the requirement"),
          missing("npm (ERR!|error) (code )?E?404"),
          missing("npm (ERR!|error) code ETARGET"),
          missing("No matching version found for"));

  private BuildErrors() {}

  /**
   * The contract message for a failed build: {@link #BUILD_TIMEOUT} when the build ran out of time,
   * otherwise the message of the signature that appears first in the log (the first failure is the
   * cause; later lines are consequences), or empty when no signature matches, in which case the
   * caller reports the log's tail.
   */
  public static Optional<String> classify(String buildLog, boolean timedOut) {
    if (timedOut) {
      return Optional.of(BUILD_TIMEOUT);
    }
    if (buildLog == null || buildLog.isEmpty()) {
      return Optional.empty();
    }
    String earliest = null;
    int earliestAt = Integer.MAX_VALUE;
    for (var signature : SIGNATURES) {
      var matcher = signature.pattern().matcher(buildLog);
      if (matcher.find() && matcher.start() < earliestAt) {
        earliestAt = matcher.start();
        earliest = signature.message();
      }
    }
    return Optional.ofNullable(earliest);
  }

  private static Signature syntax(String regex) {
    return new Signature(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), DOCKERFILE_SYNTAX_ERROR);
  }

  // "WORKDIR requires exactly one argument", "ENV must have two arguments": the parser names the
  // instruction in capitals, which keeps this from matching some tool's own usage message.
  private static Signature instructionArity() {
    return new Signature(
        Pattern.compile(
            "\\b(FROM|RUN|CMD|LABEL|EXPOSE|ENV|ADD|COPY|ENTRYPOINT|VOLUME|USER|WORKDIR|ARG|ONBUILD"
                + "|STOPSIGNAL|HEALTHCHECK|SHELL|MAINTAINER) (requires|must have) "),
        DOCKERFILE_SYNTAX_ERROR);
  }

  private static Signature missing(String regex) {
    return new Signature(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), PACKAGE_NOT_FOUND);
  }
}
