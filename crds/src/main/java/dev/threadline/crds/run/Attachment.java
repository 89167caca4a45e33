package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A file given with a message: inline (base64 content) or by URL. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Attachment {
  @JsonPropertyDescription("File name, without folders.")
  @Required
  @Size(min = 1, max = 255)
  private String name;

  @JsonPropertyDescription("Media type, e.g. text/plain.")
  @Size(max = 255)
  private String mediaType;

  @JsonPropertyDescription("The file's bytes, base64-encoded.")
  private String content;

  @JsonPropertyDescription("Where the agent can fetch the file, instead of content.")
  @Size(max = 2048)
  private String url;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getMediaType() {
    return mediaType;
  }

  public void setMediaType(String mediaType) {
    this.mediaType = mediaType;
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
