package dev.threadline.api.containers;

import dev.threadline.api.errors.ApiException;
import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerPhase;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where and how this server reaches a container's file API: {@code http://<podIP>:<port>} with the
 * container's access token, read once per container (by uid) from its Secret — a Secret that only
 * the operator writes, that the Pod mounts, and that no other Pod can read.
 */
final class ContainerAccess {
  private static final int MAX_CACHED = 1024;

  private final KubernetesClient client;
  private final Map<String, String> tokens =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
              return size() > MAX_CACHED;
            }
          });

  ContainerAccess(KubernetesClient client) {
    this.client = client;
  }

  /** The file API of a running container; 409 while it is not running. */
  RunnerEndpoint endpoint(Container container) {
    String id = ResourceIds.toId(container.getMetadata().getName());
    ContainerPhase phase = ContainerMapper.phase(container);
    var status = container.getStatus();
    if (phase != ContainerPhase.RUNNING || status.getPodIP() == null || status.getPort() == null) {
      throw ApiException.conflict(
          "Container " + id + " is not running (status: " + phase.value() + ")");
    }
    String host =
        status.getPodIP().contains(":") ? "[" + status.getPodIP() + "]" : status.getPodIP();
    return new RunnerEndpoint(
        id, URI.create("http://" + host + ":" + status.getPort()), token(container));
  }

  private String token(Container container) {
    String uid = container.getMetadata().getUid();
    String cached = tokens.get(uid);
    if (cached != null) {
      return cached;
    }
    Secret secret =
        client
            .secrets()
            .inNamespace(container.getMetadata().getNamespace())
            .withName(ContainerObjects.accessSecretName(container.getMetadata().getName()))
            .get();
    String encoded =
        secret == null || secret.getData() == null
            ? null
            : secret.getData().get(ContainerObjects.TOKEN_KEY);
    if (encoded == null) {
      throw ApiException.conflict(
          "Container "
              + ResourceIds.toId(container.getMetadata().getName())
              + " is not running (its access token is not made yet)");
    }
    String token = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8).strip();
    tokens.put(uid, token);
    return token;
  }

  /** A container's file API: its base address and the token it expects. */
  record RunnerEndpoint(String containerId, URI baseUri, String token) {}
}
