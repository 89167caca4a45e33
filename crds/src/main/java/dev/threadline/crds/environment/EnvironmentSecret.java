package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A named secret (an API token, a password) given to agent runs as an environment variable of the
 * same name. Like variables, only the name and an optional description are in the spec.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EnvironmentSecret {
  @JsonPropertyDescription(
      "Secret name; agent runs see it as an environment variable of this name.")
  @Required
  @Size(min = 1, max = 256)
  @Pattern(EnvironmentValues.NAME_PATTERN)
  private String name;

  @JsonPropertyDescription("What the secret is for (never its value).")
  @Size(max = 1000)
  private String description;

  @JsonPropertyDescription(
      "Where the value lives when not in the Environment's own Secret (<name>-vars, key"
          + " secret.<name>): a key of one of your Secrets.")
  private ValueSource valueFrom;

  public EnvironmentSecret() {}

  public EnvironmentSecret(String name, String description) {
    this.name = name;
    this.description = description;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }

  public ValueSource getValueFrom() {
    return valueFrom;
  }

  public void setValueFrom(ValueSource valueFrom) {
    this.valueFrom = valueFrom;
  }
}
