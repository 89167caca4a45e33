package dev.threadline.local.kubelet;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The ConfigMaps and Secrets of one Pod's namespace, read once per Pod start, as key → bytes.
 * Secrets are decoded here (base64 {@code data}, and {@code stringData}, which a real API server
 * folds into {@code data} but a plain store keeps as written).
 */
final class PodConfigData {
  private final KubernetesClient client;
  private final String namespace;
  private final Map<String, Optional<Map<String, byte[]>>> configMaps = new HashMap<>();
  private final Map<String, Optional<Map<String, byte[]>>> secrets = new HashMap<>();

  PodConfigData(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  Optional<Map<String, byte[]>> configMap(String name) {
    return configMaps.computeIfAbsent(name, this::readConfigMap);
  }

  Optional<Map<String, byte[]>> secret(String name) {
    return secrets.computeIfAbsent(name, this::readSecret);
  }

  private Optional<Map<String, byte[]>> readConfigMap(String name) {
    ConfigMap configMap = client.configMaps().inNamespace(namespace).withName(name).get();
    if (configMap == null) {
      return Optional.empty();
    }
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (configMap.getData() != null) {
      configMap
          .getData()
          .forEach((key, value) -> data.put(key, value.getBytes(StandardCharsets.UTF_8)));
    }
    if (configMap.getBinaryData() != null) {
      configMap
          .getBinaryData()
          .forEach((key, value) -> data.put(key, Base64.getMimeDecoder().decode(value)));
    }
    return Optional.of(data);
  }

  private Optional<Map<String, byte[]>> readSecret(String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null) {
      return Optional.empty();
    }
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret
          .getData()
          .forEach((key, value) -> data.put(key, Base64.getMimeDecoder().decode(value)));
    }
    if (secret.getStringData() != null) {
      secret
          .getStringData()
          .forEach((key, value) -> data.put(key, value.getBytes(StandardCharsets.UTF_8)));
    }
    return Optional.of(data);
  }
}
