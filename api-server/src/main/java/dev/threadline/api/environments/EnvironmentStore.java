package dev.threadline.api.environments;

import dev.threadline.api.kubernetes.ManagedInformer;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.EnvironmentValues;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Environment resources and their values Secrets. Reads come from the informer cache; writes go
 * through the Kubernetes API under optimistic locking and wait (bounded) until this replica's cache
 * reflects them. Callers answer with the object the API server returned.
 */
final class EnvironmentStore {
  private static final Logger log = LoggerFactory.getLogger(EnvironmentStore.class);
  /** A concurrent writer may win the optimistic lock; re-read and re-apply a few times. */
  static final int UPDATE_ATTEMPTS = 5;

  private final KubernetesClient client;
  private final ManagedInformer<Environment> cache;
  private final Duration visibilityTimeout;
  private final Clock clock;

  EnvironmentStore(KubernetesClient client, ManagedInformer<Environment> cache, Duration visibilityTimeout,
      Clock clock) {
    this.client = client;
    this.cache = cache;
    this.visibilityTimeout = visibilityTimeout;
    this.clock = clock;
  }

  Clock clock() {
    return clock;
  }

  /** Environments in a namespace with REST ids, unordered. Shared objects: do not modify. */
  List<Environment> list(String namespace) {
    return cache.inNamespace(namespace).stream()
        .filter(EnvironmentStore::isLive)
        .filter(EnvironmentMapper::hasRestId)
        .toList();
  }

  /** From the cache. Shared object: do not modify. */
  Optional<Environment> find(String namespace, String name) {
    return cache.get(namespace, name).filter(EnvironmentStore::isLive);
  }

  /** From the API server, for decisions that must not act on a stale copy. A private copy. */
  Optional<Environment> read(String namespace, String name) {
    return Optional.ofNullable(environments().inNamespace(namespace).withName(name).get()).filter(EnvironmentStore::isLive);
  }

  /** Every live environment of a namespace, from the API server. Private copies. */
  List<Environment> readAll(String namespace) {
    return environments().inNamespace(namespace).list().getItems().stream().filter(EnvironmentStore::isLive).toList();
  }

  /** A private deep copy of a spec, e.g. of a cached object's, to try a change on. */
  dev.threadline.crds.environment.EnvironmentSpec copy(dev.threadline.crds.environment.EnvironmentSpec spec) {
    return client.getKubernetesSerialization().clone(spec);
  }

  /** Creates the Environment; {@link KubernetesClientException} 409 when the name is taken. */
  Environment create(Environment environment) {
    Environment created = environments().inNamespace(environment.getMetadata().getNamespace())
        .resource(environment).create();
    cache.awaitVisible(created, visibilityTimeout);
    return created;
  }

  /**
   * Applies {@code change} to the current Environment and replaces it under optimistic locking;
   * empty when there is none. {@code change} receives a fresh private copy on every attempt and may
   * throw to refuse (e.g. a 409 when a build is in progress).
   */
  Optional<Environment> update(String namespace, String name, UnaryOperator<Environment> change) {
    for (int attempt = 1; ; attempt++) {
      Optional<Environment> current = read(namespace, name);
      if (current.isEmpty()) {
        return Optional.empty();
      }
      try {
        Environment updated = environments().inNamespace(namespace).resource(change.apply(current.get())).update();
        cache.awaitVisible(updated, visibilityTimeout);
        return Optional.of(updated);
      } catch (KubernetesClientException conflict) {
        if (conflict.getCode() != 409 || attempt >= UPDATE_ATTEMPTS) {
          throw conflict;
        }
        log.debug("Environment({}/{}) changed concurrently; retrying (attempt {})", namespace, name, attempt);
      }
    }
  }

  /** Deletes the Environment and its values Secret; false when there was none. */
  boolean delete(String namespace, String name) {
    List<StatusDetails> deleted = environments().inNamespace(namespace).withName(name).delete();
    // Owner references make the cluster delete the Secret too; deleting it now leaves no window.
    client.secrets().inNamespace(namespace).withName(EnvironmentValues.secretName(name)).delete();
    if (deleted.isEmpty()) {
      return false;
    }
    cache.awaitGone(namespace, name, deleted.getFirst().getUid(), visibilityTimeout);
    return true;
  }

  /** The values stored for an Environment (decoded), empty when it has none. */
  Map<String, String> values(String namespace, String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(EnvironmentValues.secretName(name)).get();
    Map<String, String> values = new LinkedHashMap<>();
    if (secret != null && secret.getData() != null) {
      secret.getData().forEach((key, encoded) ->
          values.put(key, new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8)));
    }
    return values;
  }

  /** Writes the Environment's values Secret, owned by it (created, replaced, or deleted when empty). */
  void writeValues(Environment environment, Map<String, String> values) {
    String namespace = environment.getMetadata().getNamespace();
    String name = EnvironmentValues.secretName(environment.getMetadata().getName());
    if (values.isEmpty()) {
      client.secrets().inNamespace(namespace).withName(name).delete();
      return;
    }
    Map<String, String> data = new LinkedHashMap<>();
    values.forEach((key, value) -> data.put(key,
        Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))));
    Secret secret = new SecretBuilder()
        .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .addToLabels(Labels.MANAGED_BY, Labels.MANAGER)
            .addToLabels(EnvironmentValues.ENVIRONMENT_LABEL, environment.getMetadata().getName())
            .withOwnerReferences(new OwnerReferenceBuilder()
                .withApiVersion(environment.getApiVersion())
                .withKind(environment.getKind())
                .withName(environment.getMetadata().getName())
                .withUid(environment.getMetadata().getUid())
                .build())
        .endMetadata()
        .withType("Opaque")
        .withData(data)
        .build();
    client.secrets().inNamespace(namespace).resource(secret).createOr(existing -> existing.update());
  }

  private MixedOperation<Environment, KubernetesResourceList<Environment>, Resource<Environment>> environments() {
    return client.resources(Environment.class);
  }

  /** An environment being deleted (finalizers pending) is already gone for REST clients. */
  private static boolean isLive(Environment environment) {
    return environment.getMetadata().getDeletionTimestamp() == null;
  }
}
