package dev.threadline.operator.webhooks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;

/**
 * One event for one endpoint: its id (the {@code webhook-id}, the same on every attempt and after
 * operator restarts, so receivers can drop duplicates), when it happened, and the thin JSON body
 * {@code {type, timestamp, data}} — ids and status only; receivers fetch details from the API.
 */
public record WebhookMessage(String id, String type, Instant timestamp, String body) {
  /**
   * A message whose id is derived from what it reports ({@code source}, e.g. {@code
   * ns/run-abc-1}), its type and the endpoint, so that deciding to send it twice yields one id.
   */
  public static WebhookMessage of(String source, String type, Instant timestamp, String endpointUrl,
      Map<String, ?> data) {
    ObjectNode json = Serialization.jsonMapper().createObjectNode();
    json.put("type", type);
    json.put("timestamp", DateTimeFormatter.ISO_INSTANT.format(timestamp));
    json.set("data", Serialization.jsonMapper().valueToTree(data));
    return new WebhookMessage(deterministicId(source + "\n" + type + "\n" + endpointUrl), type, timestamp,
        json.toString());
  }

  private static String deterministicId(String seed) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
      return "msg_" + HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
