package dev.threadline.api.idempotency;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.limits.ObjectLimit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Idempotency records as ConfigMaps in the user's namespace. A key is claimed by creating its
 * record: the Kubernetes API creates one object of a name and refuses the others as AlreadyExists,
 * so of any number of concurrent requests on any number of replicas exactly one wins. An expired or
 * abandoned record is taken over by an update at its resourceVersion, which is atomic too.
 */
final class IdempotencyStore {
  private static final Logger log = LoggerFactory.getLogger(IdempotencyStore.class);
  private static final int ATTEMPTS = 4;

  private final KubernetesClient client;
  private final IdempotencySettings settings;
  private final ObjectLimit limit;
  private final Clock clock;

  IdempotencyStore(
      KubernetesClient client, IdempotencySettings settings, ObjectLimit limit, Clock clock) {
    this.client = client;
    this.settings = settings;
    this.limit = limit;
    this.clock = clock;
  }

  /** The outcome of a claim: this request owns the key, or an earlier one does. */
  sealed interface Claim permits Claimed, Taken {}

  /** This request goes first; complete or release the record when done. */
  record Claimed(ConfigMap record, IdempotencyRecord state) implements Claim {}

  /** An earlier request holds the key (in flight or done). */
  record Taken(IdempotencyRecord state) implements Claim {}

  Claim claim(String namespace, String key, RequestFingerprint fingerprint) {
    String name = IdempotencyKeys.recordName(key);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Instant now = clock.instant();
      IdempotencyRecord fresh = IdempotencyRecord.claim(fingerprint.hash(), now, settings.ttl());
      Optional<ConfigMap> created = create(fresh.toConfigMap(namespace, name));
      if (created.isPresent()) {
        return new Claimed(created.get(), fresh);
      }
      ConfigMap existing = client.configMaps().inNamespace(namespace).withName(name).get();
      if (existing == null) {
        continue; // expired and swept in between: claim again
      }
      Optional<IdempotencyRecord> held = IdempotencyRecord.from(existing);
      if (held.isPresent()
          && !held.get().expired(now)
          && !held.get().abandoned(now, settings.inFlightLease())) {
        return new Taken(held.get());
      }
      Optional<ConfigMap> takenOver = replace(existing, fresh.toConfigMap(namespace, name));
      if (takenOver.isPresent()) {
        log.info(
            "Idempotency record {}/{} was {}; taken over",
            namespace,
            name,
            held.isEmpty()
                ? "unreadable"
                : held.get().expired(now) ? "expired" : "abandoned in flight");
        return new Claimed(takenOver.get(), fresh);
      }
    }
    throw ApiException.conflict(
        "A request with this " + IdempotencyKeys.HEADER + " is being processed; retry later");
  }

  /** Records the first request's result; repeats now get it. */
  void complete(Claimed claimed, StoredResult result) {
    ConfigMap record = claimed.record();
    ConfigMap done =
        claimed
            .state()
            .done(result)
            .toConfigMap(record.getMetadata().getNamespace(), record.getMetadata().getName());
    if (replace(record, done).isEmpty()) {
      // Only a repeat that judged our claim abandoned can have changed it: it owns the key now.
      log.warn(
          "Idempotency record {}/{} changed while its request ran; its result is not recorded",
          record.getMetadata().getNamespace(),
          record.getMetadata().getName());
    }
  }

  /** Forgets a claim whose request failed: the client may retry with the same key. */
  void release(Claimed claimed) {
    try {
      client
          .configMaps()
          .inNamespace(claimed.record().getMetadata().getNamespace())
          .withName(claimed.record().getMetadata().getName())
          .delete();
    } catch (KubernetesClientException failure) {
      log.warn(
          "Could not release idempotency record {}: {}",
          claimed.record().getMetadata().getName(),
          failure.toString());
    }
  }

  /** Deletes every expired record in every namespace; returns how many. */
  int sweep() {
    Instant now = clock.instant();
    int deleted = 0;
    for (ConfigMap record :
        client.configMaps().inAnyNamespace().withLabel(IdempotencyRecord.LABEL).list().getItems()) {
      boolean expired =
          IdempotencyRecord.from(record).map(state -> state.expired(now)).orElse(true);
      if (expired) {
        client
            .configMaps()
            .inNamespace(record.getMetadata().getNamespace())
            .withName(record.getMetadata().getName())
            .delete();
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * Creates the record; empty when one of its name exists. A new key beyond the user's limit of
   * records is refused (a retry of a held key still finds its record).
   */
  private Optional<ConfigMap> create(ConfigMap record) {
    String namespace = record.getMetadata().getNamespace();
    if (client.configMaps().inNamespace(namespace).withName(record.getMetadata().getName()).get()
        != null) {
      return Optional.empty();
    }
    limit.checkRoom(
        client
            .configMaps()
            .inNamespace(namespace)
            .withLabel(IdempotencyRecord.LABEL)
            .list()
            .getItems()
            .size());
    try {
      return Optional.of(
          client
              .configMaps()
              .inNamespace(record.getMetadata().getNamespace())
              .resource(record)
              .create());
    } catch (KubernetesClientException failure) {
      if (failure.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return Optional.empty();
      }
      throw failure;
    }
  }

  /** Replaces {@code current} with {@code next} if nobody changed it since it was read. */
  private Optional<ConfigMap> replace(ConfigMap current, ConfigMap next) {
    next.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
    try {
      return Optional.of(
          client
              .configMaps()
              .inNamespace(current.getMetadata().getNamespace())
              .resource(next)
              .update());
    } catch (KubernetesClientException failure) {
      if (failure.getCode() == HttpURLConnection.HTTP_CONFLICT
          || failure.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return Optional.empty();
      }
      throw failure;
    }
  }
}
