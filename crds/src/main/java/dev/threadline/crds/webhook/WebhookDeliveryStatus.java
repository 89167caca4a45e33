package dev.threadline.crds.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Where the delivery stands; the operator's record of every attempt's outcome. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebhookDeliveryStatus {
  @JsonPropertyDescription("pending, delivered or failed.")
  private WebhookDeliveryState state;

  @JsonPropertyDescription("Attempts made so far.")
  private Integer attempts;

  @JsonPropertyDescription(
      "HTTP status of the last attempt; 0 when no response came (timeout, connection refused).")
  private Integer lastStatusCode;

  @JsonPropertyDescription("Why the last attempt failed, when it did.")
  private String lastError;

  @JsonPropertyDescription("When the last attempt was made (RFC 3339, UTC).")
  private String lastAttemptAt;

  @JsonPropertyDescription("When the next attempt is due, while pending (RFC 3339, UTC).")
  private String nextAttemptAt;

  @JsonPropertyDescription(
      "When the delivery was delivered or given up (RFC 3339, UTC); the record is deleted a"
          + " retention period later.")
  private String finishedAt;

  public WebhookDeliveryState getState() {
    return state;
  }

  public void setState(WebhookDeliveryState state) {
    this.state = state;
  }

  public Integer getAttempts() {
    return attempts;
  }

  public void setAttempts(Integer attempts) {
    this.attempts = attempts;
  }

  public Integer getLastStatusCode() {
    return lastStatusCode;
  }

  public void setLastStatusCode(Integer lastStatusCode) {
    this.lastStatusCode = lastStatusCode;
  }

  public String getLastError() {
    return lastError;
  }

  public void setLastError(String lastError) {
    this.lastError = lastError;
  }

  public String getLastAttemptAt() {
    return lastAttemptAt;
  }

  public void setLastAttemptAt(String lastAttemptAt) {
    this.lastAttemptAt = lastAttemptAt;
  }

  public String getNextAttemptAt() {
    return nextAttemptAt;
  }

  public void setNextAttemptAt(String nextAttemptAt) {
    this.nextAttemptAt = nextAttemptAt;
  }

  public String getFinishedAt() {
    return finishedAt;
  }

  public void setFinishedAt(String finishedAt) {
    this.finishedAt = finishedAt;
  }
}
