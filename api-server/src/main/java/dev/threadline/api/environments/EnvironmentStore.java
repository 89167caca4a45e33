package dev.threadline.api.environments;

import dev.threadline.api.kubernetes.CachedResourceStore;
import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.api.kubernetes.OwnedSecrets;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Environment resources and their values Secrets. Reads come from the informer cache; writes go
 * through the Kubernetes API under optimistic locking and wait (bounded) until this replica's cache
 * reflects them. Callers answer with the object the API server returned.
 */
final class EnvironmentStore extends CachedResourceStore<Environment> {
  /** Default-environment changes race by design (see DefaultEnvironments): allow more re-reads. */
  private static final int UPDATE_ATTEMPTS = 5;

  private final Clock clock;

  EnvironmentStore(
      KubernetesClient client,
      ManagedInformer<Environment> cache,
      Duration visibilityTimeout,
      Clock clock) {
    super(client, Environment.class, cache, visibilityTimeout);
    this.clock = clock;
  }

  @Override
  protected int updateAttempts() {
    return UPDATE_ATTEMPTS;
  }

  Clock clock() {
    return clock;
  }

  /** Environments in a namespace with REST ids, unordered. Shared objects: do not modify. */
  @Override
  public List<Environment> list(String namespace) {
    return super.list(namespace).stream().filter(EnvironmentMapper::hasRestId).toList();
  }

  /** Every live environment of a namespace, from the API server. Private copies. */
  List<Environment> readAll(String namespace) {
    return resources().inNamespace(namespace).list().getItems().stream()
        .filter(EnvironmentStore::isLive)
        .toList();
  }

  /** A private deep copy of a spec, e.g. of a cached object's, to try a change on. */
  dev.threadline.crds.environment.EnvironmentSpec copy(
      dev.threadline.crds.environment.EnvironmentSpec spec) {
    return client.getKubernetesSerialization().clone(spec);
  }

  /** Deletes the Environment and its values Secret; false when there was none. */
  @Override
  public boolean delete(String namespace, String name) {
    // Owner references make the cluster delete the Secret too; deleting it now leaves no window.
    client.secrets().inNamespace(namespace).withName(EnvironmentValues.secretName(name)).delete();
    return super.delete(namespace, name);
  }

  /** The values stored for an Environment (decoded), empty when it has none. */
  Map<String, String> values(String namespace, String name) {
    Secret secret =
        client.secrets().inNamespace(namespace).withName(EnvironmentValues.secretName(name)).get();
    Map<String, String> values = new LinkedHashMap<>();
    if (secret != null && secret.getData() != null) {
      secret
          .getData()
          .forEach((key, encoded) ->
              values.put(
                  key, new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8)));
    }
    return values;
  }

  /**
   * Writes the Environment's values Secret, owned by it (created, replaced, or deleted when empty).
   */
  void writeValues(Environment environment, Map<String, String> values) {
    String namespace = environment.getMetadata().getNamespace();
    String name = EnvironmentValues.secretName(environment.getMetadata().getName());
    if (values.isEmpty()) {
      client.secrets().inNamespace(namespace).withName(name).delete();
      return;
    }
    Secret secret =
        OwnedSecrets.of(
            environment, name, EnvironmentValues.ENVIRONMENT_LABEL, OwnedSecrets.encode(values));
    client
        .secrets()
        .inNamespace(namespace)
        .resource(secret)
        .createOr(existing -> existing.update());
  }

  /** An environment being deleted (finalizers pending) is already gone for REST clients. */
}
