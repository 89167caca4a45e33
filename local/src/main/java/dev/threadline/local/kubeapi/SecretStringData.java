package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * What the API server does with a Secret's {@code stringData}: a write-only convenience, merged
 * into {@code data} (base64, its keys winning over data's) and never stored or returned. Readers of
 * Secrets, like the operator, see {@code data} only.
 */
final class SecretStringData {
  private SecretStringData() {}

  /** Folds {@code stringData} into {@code data} in place, when {@code object} is a core Secret. */
  static void fold(ResourceType type, JsonNode object) {
    if (!"Secret".equals(type.kind())
        || !type.group().isEmpty()
        || !(object instanceof ObjectNode secret)
        || !(secret.get("stringData") instanceof ObjectNode stringData)) {
      return;
    }
    ObjectNode data =
        secret.get("data") instanceof ObjectNode existing ? existing : secret.putObject("data");
    for (Map.Entry<String, JsonNode> entry : stringData.properties()) {
      data.put(
          entry.getKey(),
          Base64.getEncoder()
              .encodeToString(entry.getValue().asText().getBytes(StandardCharsets.UTF_8)));
    }
    secret.remove("stringData");
  }
}
