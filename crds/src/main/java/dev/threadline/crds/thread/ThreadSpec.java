package dev.threadline.crds.thread;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.generator.annotation.Size;

/** What the user chose for a conversation. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ThreadSpec {
  @JsonPropertyDescription("Title of the conversation.")
  @Size(max = 500)
  private String title;

  @JsonPropertyDescription(
      "Name of the Environment whose image runs computer tasks; the user's default when absent.")
  @Size(max = 253)
  private String environment;

  @JsonPropertyDescription(
      "Name of the Agent (model and instructions); the service default when absent.")
  @Size(max = 253)
  private String agent;

  @JsonPropertyDescription("Identifier of the application the conversation belongs to.")
  @Size(max = 200)
  private String appId;

  @JsonPropertyDescription("Custom key-value data, returned as given.")
  private JsonNode metadata;

  public String getTitle() {
    return title;
  }

  public void setTitle(String title) {
    this.title = title;
  }

  public String getEnvironment() {
    return environment;
  }

  public void setEnvironment(String environment) {
    this.environment = environment;
  }

  public String getAgent() {
    return agent;
  }

  public void setAgent(String agent) {
    this.agent = agent;
  }

  public String getAppId() {
    return appId;
  }

  public void setAppId(String appId) {
    this.appId = appId;
  }

  public JsonNode getMetadata() {
    return metadata;
  }

  public void setMetadata(JsonNode metadata) {
    this.metadata = metadata;
  }
}
