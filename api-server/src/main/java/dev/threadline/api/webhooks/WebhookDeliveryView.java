package dev.threadline.api.webhooks;

/**
 * A delivery record as REST clients see it: every field present, null when it does not apply yet.
 * {@code id} is the message id (the {@code webhook-id} header receivers see). Never the payload's
 * signature or the signing secret. Times are ISO 8601 UTC with {@code Z}.
 */
public record WebhookDeliveryView(
    String id,
    String event,
    Reference subject,
    Reference configuredOn,
    String url,
    String state,
    int attempts,
    Integer lastStatusCode,
    String lastError,
    String lastAttemptAt,
    String nextAttemptAt,
    String finishedAt,
    String createdAt) {

  /**
   * A resource by kind ({@code Run}, {@code Environment}, {@code Agent}, {@code Schedule}) and REST
   * id.
   */
  public record Reference(String kind, String id) {}

  /** {@code {delivery}}: single responses are wrapped like the others. */
  public record Single(WebhookDeliveryView delivery) {}
}
