package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * When the operator builds an Environment's image: {@code OnChange} whenever the image of its
 * current spec is not built yet (as a Deployment rolls out a changed spec, so that {@code kubectl
 * apply} then {@code kubectl wait --for=condition=Ready} works), or {@code Manual} only when {@code
 * spec.buildRequest.id} changes (what the REST API's environments use).
 */
public enum BuildPolicy {
  ON_CHANGE("OnChange"),
  MANUAL("Manual");

  private final String value;

  BuildPolicy(String value) {
    this.value = value;
  }

  @JsonValue
  public String value() {
    return value;
  }
}
