package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * A request to build the image. The operator acts once per {@code id}: set a new id to ask again
 * (the REST API does so on {@code POST .../build} and {@code PUT .../runtimes}). Its outcome is in
 * the status ({@code buildRequestId} says which request the status answers).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BuildRequest {
  @JsonPropertyDescription("Any new value asks for a build, e.g. a timestamp or a counter.")
  @Required
  @Pattern(EnvironmentValues.REQUEST_ID_PATTERN)
  private String id;

  @JsonPropertyDescription(
      "Build even when the image of the current configuration is already built.")
  @Default("false")
  private Boolean force = Boolean.FALSE;

  public BuildRequest() {}

  public BuildRequest(String id, boolean force) {
    this.id = id;
    this.force = force;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public Boolean getForce() {
    return force;
  }

  public void setForce(Boolean force) {
    this.force = force;
  }
}
