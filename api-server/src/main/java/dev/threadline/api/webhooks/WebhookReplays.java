package dev.threadline.api.webhooks;

import dev.threadline.api.auth.Tenant;
import dev.threadline.api.idempotency.ResponseSecrets;
import dev.threadline.crds.common.ResourceIds;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keeps generated webhook secrets out of idempotency records: a recorded response holds {@code
 * "secret": "****"} where the first response showed a generated one; a replay shows the value the
 * resource's webhooks Secret holds for that URL now (the same one, unless a later write replaced
 * it), or no {@code secret} when the webhook or the resource is gone.
 */
public final class WebhookReplays implements ResponseSecrets {
  static final String WITHHELD = "****";

  private final WebhookSecrets secrets;
  private final String wrapper;

  /** For responses {@code {<wrapper>: {id, ..., webhooks: [...]}}}, e.g. {@code schedule}. */
  public WebhookReplays(WebhookSecrets secrets, String wrapper) {
    this.secrets = secrets;
    this.wrapper = wrapper;
  }

  @Override
  public JsonNode withhold(JsonNode body) {
    webhooks(body)
        .forEach(item -> {
          if (item instanceof ObjectNode object && object.hasNonNull("secret")) {
            object.put("secret", WITHHELD);
          }
        });
    return body;
  }

  @Override
  public JsonNode restore(Tenant tenant, JsonNode recorded) {
    String name = ResourceIds.toName(recorded.path(wrapper).path("id").asString("")).orElse(null);
    Map<String, String> stored = null;
    for (JsonNode item : webhooks(recorded)) {
      if (!(item instanceof ObjectNode object)
          || !WITHHELD.equals(object.path("secret").asString(""))) {
        continue;
      }
      if (stored == null) {
        stored = name == null ? Map.of() : secrets.read(tenant.namespace(), name);
      }
      String value = stored.get(WebhookSecrets.keyOf(object.path("url").asString("")));
      if (value == null) {
        object.remove("secret");
      } else {
        object.put("secret", value);
      }
    }
    return recorded;
  }

  private JsonNode webhooks(JsonNode body) {
    return body.path(wrapper).path("webhooks");
  }
}
