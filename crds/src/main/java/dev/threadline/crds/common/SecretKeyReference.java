package dev.threadline.crds.common;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * One key of a Secret in the namespace of the resource that refers to it, as Kubernetes' own {@code
 * secretKeyRef}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyReference {
  @JsonPropertyDescription(
      "Name of the Secret, in the namespace of the resource that refers to it.")
  @Required
  @Size(min = 1, max = 253)
  @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
  private String name;

  @JsonPropertyDescription("Key within the Secret's data.")
  @Required
  @Size(min = 1, max = 253)
  @Pattern("^[-._a-zA-Z0-9]+$")
  private String key;

  public SecretKeyReference() {}

  public SecretKeyReference(String name, String key) {
    this.name = name;
    this.key = key;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }
}
