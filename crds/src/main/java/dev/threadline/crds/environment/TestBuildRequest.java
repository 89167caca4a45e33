package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * A request for a test build: the current configuration is built without cache and without push,
 * and the outcome goes to {@code status.testBuild}. It never changes buildStatus or imageTag.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TestBuildRequest {
  @JsonPropertyDescription("Any new value asks for a test build.")
  @Required
  @Pattern(EnvironmentValues.REQUEST_ID_PATTERN)
  private String id;

  public TestBuildRequest() {}

  public TestBuildRequest(String id) {
    this.id = id;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }
}
