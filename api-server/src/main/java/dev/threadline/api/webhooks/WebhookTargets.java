package dev.threadline.api.webhooks;

import dev.threadline.core.network.AllowedTargets;
import java.util.List;

/**
 * Where webhooks may point, as the operator will deliver them ({@code
 * THREADLINE_WEBHOOK_ALLOWED_TARGETS}, the same value): a request's {@code webhooks} are validated
 * against it, so an address the operator would refuse is a 400 naming the field, not a delivery
 * that fails later.
 */
public record WebhookTargets(AllowedTargets allowed) {
  /** The validated {@code webhooks} of a request; null when it has none. */
  public WebhookChange change(List<WebhookInput> inputs, ConfiguredOn on) {
    return WebhookChange.of(inputs, on, WebhookChange.FIELD, allowed);
  }

  /** The same for a list elsewhere in the body ({@code schedule.webhooks}), named so in 400s. */
  public WebhookChange change(List<WebhookInput> inputs, ConfiguredOn on, String listField) {
    return WebhookChange.of(inputs, on, listField, allowed);
  }
}
