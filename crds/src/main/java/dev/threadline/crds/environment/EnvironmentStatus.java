package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.ResourceStatus;

/** What the operator observed and built. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EnvironmentStatus extends ResourceStatus {
  @JsonPropertyDescription("pending, building, ready or failed.")
  private BuildStatus buildStatus;

  @JsonPropertyDescription(
      "Content hash of the configuration last rendered for a build (or, before any build, of the"
          + " current one); the image tag ends with it.")
  private String buildHash;

  @JsonPropertyDescription("The last successfully built image, env-<name>:<hash>.")
  private String imageTag;

  @JsonPropertyDescription(
      "Digest (sha256:...) of the last successfully built image, as the registry reported it; agent"
          + " Pods run the image by this digest.")
  private String imageDigest;

  @JsonPropertyDescription(
      "Why the last build failed: Dockerfile syntax error, Package not found, Build timeout, or the"
          + " last lines of the build log.")
  private String buildError;

  @JsonPropertyDescription("When the last build ended (RFC 3339, UTC).")
  private String lastBuildAt;

  @JsonPropertyDescription(
      "The spec.buildRequest.id the build status answers; a different spec value is a request not"
          + " yet taken up.")
  private String buildRequestId;

  @JsonPropertyDescription("Name of the Job of the current or last build.")
  private String buildJob;

  @JsonPropertyDescription("The current or last test build.")
  private TestBuildResult testBuild;

  @JsonPropertyDescription(
      "The build whose build.ready or build.failed webhooks were queued last:"
          + " buildHash@lastBuildAt.")
  private String webhooksQueuedFor;

  @JsonPropertyDescription("The warm pool: ready and claimed sandboxes and their image.")
  private WarmPoolStatus warmPool;

  public WarmPoolStatus getWarmPool() {
    return warmPool;
  }

  public void setWarmPool(WarmPoolStatus warmPool) {
    this.warmPool = warmPool;
  }

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

  public String getImageDigest() {
    return imageDigest;
  }

  public void setImageDigest(String imageDigest) {
    this.imageDigest = imageDigest;
  }

  public String getBuildError() {
    return buildError;
  }

  public void setBuildError(String buildError) {
    this.buildError = buildError;
  }

  public String getBuildRequestId() {
    return buildRequestId;
  }

  public void setBuildRequestId(String buildRequestId) {
    this.buildRequestId = buildRequestId;
  }

  public String getBuildJob() {
    return buildJob;
  }

  public void setBuildJob(String buildJob) {
    this.buildJob = buildJob;
  }

  public TestBuildResult getTestBuild() {
    return testBuild;
  }

  public void setTestBuild(TestBuildResult testBuild) {
    this.testBuild = testBuild;
  }

  public String getLastBuildAt() {
    return lastBuildAt;
  }

  public void setLastBuildAt(String lastBuildAt) {
    this.lastBuildAt = lastBuildAt;
  }

  public String getWebhooksQueuedFor() {
    return webhooksQueuedFor;
  }

  public void setWebhooksQueuedFor(String webhooksQueuedFor) {
    this.webhooksQueuedFor = webhooksQueuedFor;
  }
}
