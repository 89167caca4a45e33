package dev.threadline.operator.pool;

import dev.threadline.crds.environment.Environment;
import dev.threadline.operator.computer.EnvironmentValuesEnv;
import dev.threadline.operator.sandbox.SandboxCredential;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the worker needs to bind a claimed pool sandbox to its run: the pool's credential (which the
 * sandbox accepts for the bind only) and the environment's variables and secrets, read from where
 * the Environment keeps their values — the same values a cold sandbox gets from its Pod spec's
 * {@code secretKeyRef}s, here sent once over the bind instead of baked into a Pod that existed
 * before the run.
 */
public final class PoolBinding {
  private final KubernetesClient client;

  /**
   * Pool credentials read, by namespace/Secret name: a pool's Secret is made once and never
   * changed, so a bind reads it once per pool rather than once per claim.
   */
  private final Map<String, String> poolCredentials = new ConcurrentHashMap<>();

  public PoolBinding(KubernetesClient client) {
    this.client = client;
  }

  /** The pool credential of a claimed pool Pod's environment, as last read. */
  public Optional<String> poolCredential(Pod pod) {
    return secretKey(pod)
        .flatMap(key -> Optional.ofNullable(poolCredentials.get(key)))
        .or(() -> rereadPoolCredential(pod));
  }

  /**
   * The pool credential read again (the one held was refused: its environment was made anew, with a
   * new pool Secret).
   */
  public Optional<String> rereadPoolCredential(Pod pod) {
    Optional<String> key = secretKey(pod);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    key.ifPresent(poolCredentials::remove);
    Optional<String> read =
        SandboxCredential.read(
            client
                .secrets()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(PoolLabels.accessName(PoolLabels.environment(pod)))
                .get());
    read.ifPresent(credential -> poolCredentials.put(key.get(), credential));
    return read;
  }

  private static Optional<String> secretKey(Pod pod) {
    String environment = PoolLabels.environment(pod);
    return environment == null
        ? Optional.empty()
        : Optional.of(pod.getMetadata().getNamespace() + "/" + PoolLabels.accessName(environment));
  }

  /** The environment's variables and secrets by name; a value not stored yet is left out. */
  public Map<String, String> environmentValues(Pod pod) {
    String name = PoolLabels.environment(pod);
    String namespace = pod.getMetadata().getNamespace();
    Environment environment =
        name == null
            ? null
            : client.resources(Environment.class).inNamespace(namespace).withName(name).get();
    if (environment == null) {
      return Map.of();
    }
    Map<String, Secret> secrets = new HashMap<>();
    Map<String, String> values = new LinkedHashMap<>();
    for (EnvVar variable : EnvironmentValuesEnv.of(environment.getSpec())) {
      SecretKeySelector ref = variable.getValueFrom().getSecretKeyRef();
      Secret secret =
          secrets.computeIfAbsent(
              ref.getName(),
              secretName -> client.secrets().inNamespace(namespace).withName(secretName).get());
      if (secret != null
          && secret.getData() != null
          && secret.getData().get(ref.getKey()) != null) {
        values.put(
            variable.getName(),
            new String(
                Base64.getDecoder().decode(secret.getData().get(ref.getKey())),
                StandardCharsets.UTF_8));
      }
    }
    // The sandbox never gets the platform's variables, as SandboxPod drops them from a cold Pod.
    values.keySet().removeIf(key -> key.equals("HOME") || key.startsWith("THREADLINE_"));
    return values;
  }
}
