package dev.threadline.crds.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.threadline.crds.common.SecretKeyReference;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

/**
 * One receiver of an Agent's, Environment's or Schedule's events. The signing secret is never in
 * the spec: it is a key of a Secret beside the resource, holding {@code whsec_<base64 key>}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebhookEndpoint {
  public static final int MAX_PER_RESOURCE = 10;

  @JsonPropertyDescription("Where events are POSTed: an absolute http or https URL.")
  @Required
  @Size(min = 1, max = 2048)
  @Pattern("^https?://[^\\s]+$")
  private String url;

  @JsonPropertyDescription(
      "The events to send: run.completed, run.failed, run.cancelled (on Agents, Environments and"
          + " Schedules), build.ready, build.failed (on Environments). Empty or absent: every event"
          + " the resource has.")
  @Size(max = 5)
  private List<WebhookEvent> events = new ArrayList<>();

  @JsonPropertyDescription(
      "The Secret key holding the signing secret, `whsec_` followed by base64 of at least 24 random"
          + " bytes (Standard Webhooks).")
  @Required
  private SecretKeyReference secretRef;

  public WebhookEndpoint() {}

  public WebhookEndpoint(String url, List<WebhookEvent> events, SecretKeyReference secretRef) {
    this.url = url;
    this.events = new ArrayList<>(events);
    this.secretRef = secretRef;
  }

  /** Whether this endpoint wants {@code event}: it names it, or it names none. */
  public boolean wants(WebhookEvent event) {
    return events == null || events.isEmpty() || events.contains(event);
  }

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public List<WebhookEvent> getEvents() {
    return events;
  }

  public void setEvents(List<WebhookEvent> events) {
    this.events = events;
  }

  public SecretKeyReference getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretKeyReference secretRef) {
    this.secretRef = secretRef;
  }
}
