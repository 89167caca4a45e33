package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** How a run changed one file of the workspace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FileDiff {
  @JsonPropertyDescription("File path in the workspace.")
  @Required
  private String path;

  @JsonPropertyDescription("create or modify.")
  @Pattern("^(create|modify|delete)$")
  private String type;

  @JsonPropertyDescription("The new file's content (create), bounded.")
  private String content;

  @Min(0)
  private Long additions;

  @Min(0)
  private Long deletions;

  public String getPath() {
    return path;
  }

  public void setPath(String path) {
    this.path = path;
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getContent() {
    return content;
  }

  public void setContent(String content) {
    this.content = content;
  }

  public Long getAdditions() {
    return additions;
  }

  public void setAdditions(Long additions) {
    this.additions = additions;
  }

  public Long getDeletions() {
    return deletions;
  }

  public void setDeletions(Long deletions) {
    this.deletions = deletions;
  }
}
