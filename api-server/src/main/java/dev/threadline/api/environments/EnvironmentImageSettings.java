package dev.threadline.api.environments;

import dev.threadline.core.environment.ImageDefaults;
import java.time.Duration;
import java.util.Map;

/**
 * What the API server needs to render an environment's effective Dockerfile exactly as the operator
 * will: the same default base image and runner image (the Helm chart gives both Deployments the
 * same {@code THREADLINE_BASE_IMAGE} and {@code THREADLINE_RUNNER_IMAGE}; both default to {@link
 * ImageDefaults}), and how long {@code POST .../build/test} waits for its test build.
 */
public record EnvironmentImageSettings(
    String baseImage, String runnerImage, Duration testBuildWait) {
  public static final Duration DEFAULT_TEST_BUILD_WAIT = Duration.ofMinutes(5);

  public EnvironmentImageSettings {
    if (testBuildWait == null || testBuildWait.isNegative()) {
      throw new IllegalArgumentException("testBuildWait must be zero or positive");
    }
  }

  /**
   * {@code THREADLINE_BASE_IMAGE}, {@code THREADLINE_RUNNER_IMAGE}, {@code
   * THREADLINE_TEST_BUILD_WAIT_SECONDS}.
   */
  public static EnvironmentImageSettings fromEnvironment(Map<String, String> env) {
    String wait = blankToNull(env.get("THREADLINE_TEST_BUILD_WAIT_SECONDS"));
    Duration testBuildWait;
    try {
      testBuildWait =
          wait == null ? DEFAULT_TEST_BUILD_WAIT : Duration.ofSeconds(Long.parseLong(wait.strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "THREADLINE_TEST_BUILD_WAIT_SECONDS must be a whole number, got: " + wait);
    }
    return new EnvironmentImageSettings(
        or(blankToNull(env.get("THREADLINE_BASE_IMAGE")), ImageDefaults.BASE_IMAGE),
        or(blankToNull(env.get("THREADLINE_RUNNER_IMAGE")), ImageDefaults.RUNNER_IMAGE),
        testBuildWait);
  }

  private static String or(String value, String fallback) {
    return value == null ? fallback : value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
