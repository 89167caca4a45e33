package dev.threadline.api.webhooks;

import dev.threadline.crds.webhook.WebhookEndpoint;
import dev.threadline.crds.webhook.WebhookEvent;
import java.util.List;
import java.util.Map;

/** Spec endpoints as REST views. */
public final class WebhookViews {
  private WebhookViews() {}

  /** Views without secrets: what every read shows. */
  public static List<WebhookView> of(List<WebhookEndpoint> endpoints) {
    return of(endpoints, Map.of());
  }

  /** Views showing the secrets this write generated (by URL), and no other. */
  public static List<WebhookView> of(
      List<WebhookEndpoint> endpoints, Map<String, String> generated) {
    if (endpoints == null) {
      return List.of();
    }
    return endpoints.stream()
        .map(endpoint ->
            new WebhookView(
                endpoint.getUrl(),
                endpoint.getEvents() == null
                    ? List.of()
                    : endpoint.getEvents().stream().map(WebhookEvent::value).toList(),
                generated.get(endpoint.getUrl())))
        .toList();
  }
}
