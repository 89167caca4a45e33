package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The state or outcome of the last test build. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TestBuildResult {
  @JsonPropertyDescription("The spec.testBuildRequest.id this result answers.")
  private String requestId;

  @JsonPropertyDescription("Name of the test build Job, while and after it runs.")
  private String job;

  @JsonPropertyDescription("building while the Job runs, then ready or failed.")
  private BuildStatus phase;

  @JsonPropertyDescription("The tag the image would get, env-<name>:<hash>.")
  private String imageTag;

  @JsonPropertyDescription(
      "Why the test build failed: one of the contract's build errors or the log's last lines.")
  private String error;

  @JsonPropertyDescription("When the test build ended (RFC 3339, UTC).")
  private String finishedAt;

  public String getRequestId() {
    return requestId;
  }

  public void setRequestId(String requestId) {
    this.requestId = requestId;
  }

  public String getJob() {
    return job;
  }

  public void setJob(String job) {
    this.job = job;
  }

  public BuildStatus getPhase() {
    return phase;
  }

  public void setPhase(BuildStatus phase) {
    this.phase = phase;
  }

  public String getImageTag() {
    return imageTag;
  }

  public void setImageTag(String imageTag) {
    this.imageTag = imageTag;
  }

  public String getError() {
    return error;
  }

  public void setError(String error) {
    this.error = error;
  }

  public String getFinishedAt() {
    return finishedAt;
  }

  public void setFinishedAt(String finishedAt) {
    this.finishedAt = finishedAt;
  }
}
