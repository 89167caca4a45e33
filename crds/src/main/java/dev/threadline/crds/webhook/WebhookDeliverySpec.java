package dev.threadline.crds.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.SecretKeyReference;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** What is sent, to where, signed with which secret. Written once by the operator. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebhookDeliverySpec {
  @JsonPropertyDescription(
      "The message id, sent as `webhook-id` on every attempt: receivers drop duplicates by it.")
  @Required
  @Size(min = 1, max = 100)
  private String messageId;

  @JsonPropertyDescription("The event type, also the body's `type`.")
  @Required
  private WebhookEvent event;

  @JsonPropertyDescription("What the event is about: the Run or the Environment.")
  @Required
  private WebhookSubject subject;

  @JsonPropertyDescription(
      "The Agent, Environment or Schedule whose spec.webhooks names this endpoint.")
  @Required
  private WebhookSubject configuredOn;

  @JsonPropertyDescription("The endpoint.")
  @Required
  @Size(min = 1, max = 2048)
  private String url;

  @JsonPropertyDescription("The signing secret, as in the configuring resource's spec.webhooks.")
  @Required
  private SecretKeyReference secretRef;

  @JsonPropertyDescription(
      "The JSON body, exactly as sent: {type, timestamp, data}, ids and outcome only.")
  @Required
  @Size(min = 2, max = 16384)
  private String payload;

  public String getMessageId() {
    return messageId;
  }

  public void setMessageId(String messageId) {
    this.messageId = messageId;
  }

  public WebhookEvent getEvent() {
    return event;
  }

  public void setEvent(WebhookEvent event) {
    this.event = event;
  }

  public WebhookSubject getSubject() {
    return subject;
  }

  public void setSubject(WebhookSubject subject) {
    this.subject = subject;
  }

  public WebhookSubject getConfiguredOn() {
    return configuredOn;
  }

  public void setConfiguredOn(WebhookSubject configuredOn) {
    this.configuredOn = configuredOn;
  }

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public SecretKeyReference getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretKeyReference secretRef) {
    this.secretRef = secretRef;
  }

  public String getPayload() {
    return payload;
  }

  public void setPayload(String payload) {
    this.payload = payload;
  }
}
