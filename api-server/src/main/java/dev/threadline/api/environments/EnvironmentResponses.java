package dev.threadline.api.environments;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.threadline.crds.environment.BuildStatus;
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

  /** {@code testBuild}: beyond the contract's fields, the latest test build; null before any. */
  record BuildState(
      String buildStatus,
      String buildError,
      String imageTag,
      String lastBuildAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) TestBuildState testBuild) {}

  /** What {@code POST .../build/test} answers: a failure seen at once, or a started build. */
  sealed interface TestBuildAnswer permits TestBuild, TestBuildStarted {}

  /** 202: the test build runs; {@code GET .../build/status} shows its outcome. */
  record TestBuildStarted(String message, String environmentId, String testBuildStatus)
      implements TestBuildAnswer {}

  /**
   * A test build in the status: {@code status} (pending, building, ready, failed) and, once it is
   * over, the contract's result fields ({@code success, imageTag, message} or {@code success:
   * false, error}).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record TestBuildState(
      String status, Boolean success, String imageTag, String message, String error) {
    static TestBuildState of(BuildStatus phase, String imageTag, String error) {
      return switch (phase) {
        case READY -> new TestBuildState(phase.value(), true, imageTag, SUCCEEDED, null);
        case FAILED -> new TestBuildState(phase.value(), false, null, null, error);
        default -> new TestBuildState(phase.value(), null, null, null, null);
      };
    }
  }

  static final String SUCCEEDED =
      "Test build succeeded; the image was built without cache and not pushed";

  record BuildLogs(String buildLogs, String buildStatus) {}

  /**
   * Success: {@code {success: true, imageTag, message}}; failure: {@code {success: false, error}}.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record TestBuild(boolean success, String imageTag, String message, String error)
      implements TestBuildAnswer {
    static TestBuild failed(String error) {
      return new TestBuild(false, null, null, error);
    }
  }
}
