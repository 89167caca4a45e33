package dev.threadline.crds.environment;

import com.fasterxml.jackson.annotation.JsonValue;

/** The contract's buildStatus values. */
public enum BuildStatus {
  PENDING("pending"),
  BUILDING("building"),
  READY("ready"),
  FAILED("failed");

  private final String value;

  BuildStatus(String value) {
    this.value = value;
  }

  @JsonValue
  public String value() {
    return value;
  }
}
