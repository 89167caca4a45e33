package dev.threadline.api.environments;

import dev.threadline.core.environment.ImageDefaults;
import java.util.Map;

/**
 * What the API server needs to render an environment's effective Dockerfile exactly as the operator
 * will: the same default base image and runner image (the Helm chart gives both Deployments the
 * same {@code THREADLINE_BASE_IMAGE} and {@code THREADLINE_RUNNER_IMAGE}; both default to {@link
 * ImageDefaults}).
 */
public record EnvironmentImageSettings(String baseImage, String runnerImage) {
  /** {@code THREADLINE_BASE_IMAGE}, {@code THREADLINE_RUNNER_IMAGE}. */
  public static EnvironmentImageSettings fromEnvironment(Map<String, String> env) {
    return new EnvironmentImageSettings(
        or(blankToNull(env.get("THREADLINE_BASE_IMAGE")), ImageDefaults.BASE_IMAGE),
        or(blankToNull(env.get("THREADLINE_RUNNER_IMAGE")), ImageDefaults.RUNNER_IMAGE));
  }

  private static String or(String value, String fallback) {
    return value == null ? fallback : value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
