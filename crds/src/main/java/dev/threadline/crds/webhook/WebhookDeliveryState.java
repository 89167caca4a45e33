package dev.threadline.crds.webhook;

import com.fasterxml.jackson.annotation.JsonValue;

/** pending (not yet accepted, more attempts to come), delivered (a 2xx), failed (gave up). */
public enum WebhookDeliveryState {
  PENDING("pending"),
  DELIVERED("delivered"),
  FAILED("failed");

  private final String value;

  WebhookDeliveryState(String value) {
    this.value = value;
  }

  @JsonValue
  public String value() {
    return value;
  }

  public boolean isFinal() {
    return this != PENDING;
  }
}
