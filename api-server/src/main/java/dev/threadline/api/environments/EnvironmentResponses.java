package dev.threadline.api.environments;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/** Response bodies of the environment endpoints. */
final class EnvironmentResponses {
  private EnvironmentResponses() {}

  /** {@code {environment}}: every single-environment answer is wrapped, as set-default's is. */
  record Single(EnvironmentView environment) {}

  /**
   * {@code DELETE}: what was deleted and how; a soft delete is undone with {@code PATCH {isActive:
   * true}}.
   */
  record Deleted(boolean success, String id, boolean hard) {}

  record AvailableRuntimes(Map<String, List<String>> runtimes) {}

  record Runtimes(Map<String, String> runtimes) {}

  record PackagesBody(EnvironmentView.PackagesView packages) {}

  record Installed(EnvironmentView environment, List<String> installed) {}

  record Uninstalled(boolean success, EnvironmentView environment, String type, String name) {}

  record Dockerfile(String baseImage, String dockerfileExtensions, String effectiveDockerfile) {}

  record DockerfileValidation(boolean valid, List<String> warnings, String effectiveDockerfile) {}

  record BuildAccepted(String message, String environmentId, String buildStatus) {}

  record BuildState(String buildStatus, String buildError, String imageTag, String lastBuildAt) {}

  record BuildLogs(String buildLogs, String buildStatus) {}

  /**
   * Success: {@code {success: true, imageTag, message}}; failure: {@code {success: false, error}}.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record TestBuild(boolean success, String imageTag, String message, String error) {
    static TestBuild succeeded(String imageTag, String message) {
      return new TestBuild(true, imageTag, message, null);
    }

    static TestBuild failed(String error) {
      return new TestBuild(false, null, null, error);
    }
  }
}
