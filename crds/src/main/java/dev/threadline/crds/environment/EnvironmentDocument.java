package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** A piece of documentation given to the agent as context: inline text or a link, not both. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "has(self.content) != has(self.url)",
    message = "a document has either content or url")
public class EnvironmentDocument {
  @JsonPropertyDescription("Title shown to the agent.")
  @Required
  @Size(min = 1, max = 200)
  private String title;

  @JsonPropertyDescription("The text itself (Markdown welcome).")
  @Size(min = 1, max = 65536)
  private String content;

  @JsonPropertyDescription("An http(s) address the agent may read.")
  @Size(max = 2048)
  @Pattern(EnvironmentValues.HTTP_URL_PATTERN)
  private String url;

  public EnvironmentDocument() {}

  public EnvironmentDocument(String title, String content, String url) {
    this.title = title;
    this.content = content;
    this.url = url;
  }

  public String getTitle() {
    return title;
  }

  public void setTitle(String title) {
    this.title = title;
  }

  public String getContent() {
    return content;
  }

  public void setContent(String content) {
    this.content = content;
  }

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }
}
