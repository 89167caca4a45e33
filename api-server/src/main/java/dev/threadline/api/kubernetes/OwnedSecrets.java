package dev.threadline.api.kubernetes;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.OwnerReferences;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Secrets the API server keeps beside a resource (environment values, webhook signing secrets,
 * MCP tokens): managed by Threadline, labelled with the owner's name, owned by it so they go with
 * it.
 */
public final class OwnedSecrets {
  private OwnedSecrets() {}

  /**
   * An Opaque Secret {@code name} in the owner's namespace, holding already base64-encoded {@code
   * data}.
   */
  public static Secret of(
      HasMetadata owner, String name, String ownerLabel, Map<String, String> data) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(owner.getMetadata().getNamespace())
        .addToLabels(Labels.MANAGED_BY, Labels.MANAGER)
        .addToLabels(ownerLabel, owner.getMetadata().getName())
        .withOwnerReferences(OwnerReferences.controller(owner))
        .endMetadata()
        .withType("Opaque")
        .withData(data)
        .build();
  }

  /**
   * Values as a Secret's {@code data} holds them: base64 of their UTF-8 bytes, in the same order.
   */
  public static Map<String, String> encode(Map<String, String> values) {
    Map<String, String> data = new LinkedHashMap<>();
    values.forEach((key, value) ->
        data.put(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))));
    return data;
  }
}
