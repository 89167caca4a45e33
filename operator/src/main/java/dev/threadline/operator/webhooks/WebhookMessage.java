package dev.threadline.operator.webhooks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.webhook.WebhookEvent;
import dev.threadline.crds.webhook.WebhookSubject;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.Map;

/**
 * One event for one endpoint: its id (the {@code webhook-id}, the same on every attempt and after
 * operator restarts, so receivers can drop duplicates), when it happened, and the thin JSON body
 * {@code {type, timestamp, data}} — ids and outcome only; receivers fetch details from the API.
 */
public record WebhookMessage(String id, WebhookEvent event, Instant timestamp, String body) {
  private static final String ID_PREFIX = "msg_";
  private static final String NAME_PREFIX = "wh-";

  /** The message with this id, its body {@code {"type", "timestamp", "data"}} in that order. */
  public static WebhookMessage of(
      String id, WebhookEvent event, Instant timestamp, Map<String, ?> data) {
    ObjectNode json = Serialization.jsonMapper().createObjectNode();
    json.put("type", event.value());
    json.put("timestamp", Timestamps.format(timestamp));
    json.set("data", Serialization.jsonMapper().valueToTree(data));
    return new WebhookMessage(id, event, timestamp, json.toString());
  }

  /**
   * {@code msg_<32 hex>}, derived from everything that makes a delivery one delivery: the
   * namespace, what the event is about, the event, which occurrence of it ({@code occurrence}: a
   * Run's uid, a build's {@code buildHash@lastBuildAt}), the resource the endpoint is configured on
   * and its URL. Deciding to send the same thing twice yields the same id, and so the same
   * WebhookDelivery.
   */
  public static String messageId(
      String namespace,
      WebhookSubject subject,
      WebhookEvent event,
      String occurrence,
      WebhookSubject configuredOn,
      String url) {
    String seed =
        String.join(
            "\n",
            namespace,
            subject.getKind(),
            subject.getName(),
            event.value(),
            occurrence == null ? "" : occurrence,
            configuredOn.getKind(),
            configuredOn.getName(),
            url);
    return ID_PREFIX + Sha256.hex(seed).substring(0, 32);
  }

  /** The WebhookDelivery of a message id: {@code wh-<32 hex>}, a valid DNS-1123 name. */
  public static String deliveryName(String messageId) {
    if (!messageId.startsWith(ID_PREFIX)) {
      throw new IllegalArgumentException("not a webhook message id: " + messageId);
    }
    return NAME_PREFIX + messageId.substring(ID_PREFIX.length());
  }
}
