package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * An environment variable of agent runs. Only its name is in the spec: the value is in the
 * Environment's own Secret ({@link EnvironmentValues#secretName}, key {@link
 * EnvironmentValues#variableKey}) unless {@code valueFrom} points at another Secret.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EnvironmentVariable {
  @JsonPropertyDescription("Variable name, e.g. DATABASE_URL.")
  @Required
  @Size(min = 1, max = 256)
  @Pattern(EnvironmentValues.NAME_PATTERN)
  private String key;

  @JsonPropertyDescription(
      "Where the value lives when not in the Environment's own Secret (<name>-vars, key env.<key>):"
          + " a key of one of your Secrets.")
  private ValueSource valueFrom;

  public EnvironmentVariable() {}

  public EnvironmentVariable(String key) {
    this.key = key;
  }

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }

  public ValueSource getValueFrom() {
    return valueFrom;
  }

  public void setValueFrom(ValueSource valueFrom) {
    this.valueFrom = valueFrom;
  }
}
