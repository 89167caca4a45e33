package dev.threadline.api.webhooks;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.kubernetes.OwnedSecrets;
import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Labels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The webhook signing secrets of Agents, Environments and Schedules written through the REST API:
 * one Secret per resource, {@code <resource-name>-webhooks}, owned by the resource (deleted with
 * it), one key per endpoint, {@code wh-<first 16 hex digits of sha256(url)>}, holding {@code
 * whsec_<base64>}. The spec's {@code webhooks[].secretRef} names Secret and key.
 */
public final class WebhookSecrets {
  /** Label on the Secret: the name of the resource whose webhooks it signs. */
  public static final String RESOURCE_LABEL = "threadline.dev/webhooks-of";

  private static final String SUFFIX = "-webhooks";
  private static final String KEY_PREFIX = "wh-";
  private static final int GENERATED_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final KubernetesClient client;

  public WebhookSecrets(KubernetesClient client) {
    this.client = client;
  }

  /** {@code <resource-name>-webhooks}. */
  public static String secretName(String resourceName) {
    return resourceName + SUFFIX;
  }

  /**
   * {@code wh-} and the first 16 hex digits of the URL's SHA-256: stable, and a valid Secret key.
   */
  public static String keyOf(String url) {
    return KEY_PREFIX + Sha256.hex(url).substring(0, 16);
  }

  /** A new signing secret: {@code whsec_} and the base64 of 32 random bytes. */
  public static String generate() {
    byte[] key = new byte[GENERATED_BYTES];
    RANDOM.nextBytes(key);
    return WebhookChange.SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
  }

  /**
   * The values of a resource's webhooks Secret (decoded); empty when there is none or it is not
   * ours.
   */
  public Map<String, String> read(String namespace, String resourceName) {
    return ours(namespace, resourceName).map(WebhookSecrets::decode).orElse(Map.of());
  }

  /**
   * Makes the owner's webhooks Secret hold exactly {@code resolved}'s values (created, replaced, or
   * deleted when there are none). A Secret of that name made by someone else is never touched: 409.
   */
  public void write(HasMetadata owner, WebhookChange.Resolved resolved) {
    if (!resolved.secretChanged()) {
      return;
    }
    String namespace = owner.getMetadata().getNamespace();
    String name = secretName(owner.getMetadata().getName());
    Secret existing = client.secrets().inNamespace(namespace).withName(name).get();
    if (existing != null && !isOurs(existing)) {
      throw ApiException.conflict(
          "Secret "
              + name
              + " exists and is not managed by Threadline; "
              + "rename it, or set spec.webhooks with kubectl");
    }
    if (resolved.secretData().isEmpty()) {
      if (existing != null) {
        client.secrets().inNamespace(namespace).withName(name).delete();
      }
      return;
    }
    Secret secret =
        OwnedSecrets.of(owner, name, RESOURCE_LABEL, OwnedSecrets.encode(resolved.secretData()));
    client.secrets().inNamespace(namespace).resource(secret).createOr(current -> current.update());
  }

  /**
   * {@link #write} for a resource just created: if the Secret cannot be written, {@code undo}
   * deletes the resource again, so that no spec names signing secrets that were not stored.
   */
  public void writeForNew(HasMetadata created, WebhookChange.Resolved resolved, Runnable undo) {
    try {
      write(created, resolved);
    } catch (RuntimeException failed) {
      undo.run();
      throw failed;
    }
  }

  /**
   * Deletes a resource's webhooks Secret if there is one of ours (owner references would, later).
   */
  public void delete(String namespace, String resourceName) {
    if (ours(namespace, resourceName).isPresent()) {
      client.secrets().inNamespace(namespace).withName(secretName(resourceName)).delete();
    }
  }

  private Optional<Secret> ours(String namespace, String resourceName) {
    return Optional.ofNullable(
            client.secrets().inNamespace(namespace).withName(secretName(resourceName)).get())
        .filter(WebhookSecrets::isOurs);
  }

  private static boolean isOurs(Secret secret) {
    Map<String, String> labels = secret.getMetadata().getLabels();
    return labels != null
        && Labels.MANAGER.equals(labels.get(Labels.MANAGED_BY))
        && labels.containsKey(RESOURCE_LABEL);
  }

  private static Map<String, String> decode(Secret secret) {
    Map<String, String> values = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret
          .getData()
          .forEach((key, encoded) ->
              values.put(
                  key, new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8)));
    }
    if (secret.getStringData() != null) {
      values.putAll(secret.getStringData());
    }
    return values;
  }
}
