package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A shell script run once at image build time, as root, after packages and extensions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EnvironmentSetupScript {
  @JsonPropertyDescription(
      "A label for humans; it appears in the generated Dockerfile as a comment.")
  @Required
  @Size(min = 1, max = 200)
  private String name;

  @JsonPropertyDescription(
      "The script; a first line starting with #! picks the interpreter, otherwise bash -e runs it.")
  @Required
  @Size(min = 1, max = 65536)
  private String script;

  public EnvironmentSetupScript() {}

  public EnvironmentSetupScript(String name, String script) {
    this.name = name;
    this.script = script;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getScript() {
    return script;
  }

  public void setScript(String script) {
    this.script = script;
  }
}
