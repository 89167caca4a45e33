package dev.threadline.crds.webhook;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The events a webhook can announce, with the kind of resource each is configured on. */
public enum WebhookEvent {
  RUN_COMPLETED("run.completed"),
  RUN_FAILED("run.failed"),
  RUN_CANCELLED("run.cancelled"),
  /** A run waits for a person: a tool call to approve, or the model's question. */
  RUN_APPROVAL_REQUESTED("run.approval_requested"),
  BUILD_READY("build.ready"),
  BUILD_FAILED("build.failed");

  private final String value;

  WebhookEvent(String value) {
    this.value = value;
  }

  /** The {@code type} of the message and the name used in {@code events} filters. */
  @JsonValue
  public String value() {
    return value;
  }

  public boolean isRunEvent() {
    return value.startsWith("run.");
  }

  @JsonCreator
  public static WebhookEvent fromValue(String value) {
    return find(value)
        .orElseThrow(() -> new IllegalArgumentException("unknown webhook event: " + value));
  }

  public static Optional<WebhookEvent> find(String value) {
    return Arrays.stream(values()).filter(event -> event.value.equals(value)).findFirst();
  }

  /** Every value, for error messages and documentation. */
  public static List<String> allValues() {
    return Arrays.stream(values()).map(WebhookEvent::value).toList();
  }
}
