package dev.threadline.api.idempotency;

import dev.threadline.api.auth.Tenant;
import tools.jackson.databind.JsonNode;

/**
 * Values a first response shows once (a generated webhook secret) that its idempotency record, a
 * ConfigMap, must not hold in plain text: withheld before the response is recorded, restored from
 * where they are kept (a Secret) when a repeat replays it.
 */
public interface ResponseSecrets {
  /** The body to record: {@code body} (a private copy) without the secrets. */
  JsonNode withhold(JsonNode body);

  /**
   * The body to replay: {@code recorded} (a private copy) with the secrets as they are stored now.
   */
  JsonNode restore(Tenant tenant, JsonNode recorded);
}
