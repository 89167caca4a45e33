package dev.threadline.crds.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A Threadline resource in the delivery's namespace, by kind and name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebhookSubject {
  @JsonPropertyDescription("Kind: Run, Environment, Agent or Schedule.")
  @Required
  @Size(min = 1, max = 63)
  private String kind;

  @JsonPropertyDescription("Name, in the delivery's namespace.")
  @Required
  @Size(min = 1, max = 253)
  private String name;

  public WebhookSubject() {}

  public WebhookSubject(String kind, String name) {
    this.kind = kind;
    this.name = name;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }
}
