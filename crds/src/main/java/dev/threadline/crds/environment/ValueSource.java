package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.SecretKeyReference;
import io.fabric8.generator.annotation.Required;

/** Where a sensitive value lives: always a Secret, never the spec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ValueSource {
  @JsonPropertyDescription("The Secret key holding the value.")
  @Required
  private SecretKeyReference secretKeyRef;

  public ValueSource() {}

  public ValueSource(SecretKeyReference secretKeyRef) {
    this.secretKeyRef = secretKeyRef;
  }

  public SecretKeyReference getSecretKeyRef() {
    return secretKeyRef;
  }

  public void setSecretKeyRef(SecretKeyReference secretKeyRef) {
    this.secretKeyRef = secretKeyRef;
  }
}
