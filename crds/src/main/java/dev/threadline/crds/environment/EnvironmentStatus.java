package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.ResourceStatus;

/** What the operator observed and built. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EnvironmentStatus extends ResourceStatus {
  @JsonPropertyDescription("pending, building, ready or failed.")
  private BuildStatus buildStatus;

  @JsonPropertyDescription("Content hash of everything that shapes the image.")
  private String buildHash;

  @JsonPropertyDescription("The last built image, `env-<name>:<hash>`.")
  private String imageTag;

  @JsonPropertyDescription("Why the last build failed.")
  private String buildError;

  @JsonPropertyDescription("When the last build ended (RFC 3339, UTC).")
  private String lastBuildAt;

  public BuildStatus getBuildStatus() {
    return buildStatus;
  }

  public void setBuildStatus(BuildStatus buildStatus) {
    this.buildStatus = buildStatus;
  }

  public String getBuildHash() {
    return buildHash;
  }

  public void setBuildHash(String buildHash) {
    this.buildHash = buildHash;
  }

  public String getImageTag() {
    return imageTag;
  }

  public void setImageTag(String imageTag) {
    this.imageTag = imageTag;
  }

  public String getBuildError() {
    return buildError;
  }

  public void setBuildError(String buildError) {
    this.buildError = buildError;
  }

  public String getLastBuildAt() {
    return lastBuildAt;
  }

  public void setLastBuildAt(String lastBuildAt) {
    this.lastBuildAt = lastBuildAt;
  }
}
