package dev.threadline.api.webhooks;

import dev.threadline.crds.webhook.WebhookEvent;
import java.util.Arrays;
import java.util.List;

/** The kinds of resource a webhook is configured on, and the events each has. */
public enum ConfiguredOn {
  AGENT("agents"),
  ENVIRONMENT("environments"),
  SCHEDULE("schedules");

  private final String plural;

  ConfiguredOn(String plural) {
    this.plural = plural;
  }

  /** Run events everywhere; build events only on environments. */
  public boolean allows(WebhookEvent event) {
    return event.isRunEvent() || this == ENVIRONMENT;
  }

  List<String> allowedValues() {
    return Arrays.stream(WebhookEvent.values())
        .filter(this::allows)
        .map(WebhookEvent::value)
        .toList();
  }

  String plural() {
    return plural;
  }
}
