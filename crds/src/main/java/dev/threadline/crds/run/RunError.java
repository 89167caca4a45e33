package dev.threadline.crds.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Why a run failed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunError {
  @JsonPropertyDescription(
      "usage_exhausted, execution_timeout, execution_failed, rate_limited or cancelled.")
  private String code;

  @JsonPropertyDescription("What went wrong, for people.")
  private String message;

  public String getCode() {
    return code;
  }

  public void setCode(String code) {
    this.code = code;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }
}
