package dev.threadline.api.containers;

import dev.threadline.api.kubernetes.OwnedSecrets;
import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.container.Container;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A container's MCP bearer tokens: one Secret per container ({@code <name>-values}), owned by it,
 * one key per server ({@code mcp.<server>.bearerToken}). The spec names the key only; the API never
 * shows a token again.
 */
final class McpTokenSecret {
  private static final int ATTEMPTS = 3;

  private final KubernetesClient client;

  McpTokenSecret(KubernetesClient client) {
    this.client = client;
  }

  /** Stores tokens (adding to those already stored) and drops the keys in {@code removed}. */
  void write(Container container, Map<String, String> tokens, Set<String> removed) {
    if (tokens.isEmpty() && removed.isEmpty()) {
      return;
    }
    String namespace = container.getMetadata().getNamespace();
    String name = ContainerObjects.valuesSecretName(container.getMetadata().getName());
    for (int attempt = 1; ; attempt++) {
      Secret current = client.secrets().inNamespace(namespace).withName(name).get();
      Map<String, String> data =
          new LinkedHashMap<>(
              current == null || current.getData() == null ? Map.of() : current.getData());
      data.putAll(OwnedSecrets.encode(tokens));
      data.keySet().removeAll(removed);
      try {
        if (current == null) {
          client.secrets().inNamespace(namespace).resource(secret(container, name, data)).create();
        } else {
          current.setData(data);
          client.secrets().inNamespace(namespace).resource(current).update();
        }
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private static Secret secret(Container container, String name, Map<String, String> data) {
    return OwnedSecrets.of(container, name, ContainerObjects.CONTAINER_LABEL, data);
  }
}
