package dev.threadline.local.kubelet.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an object's status through the status subresource the way a controller must: read the
 * latest version, change it, PUT it with that resourceVersion, and start over on a conflict. An
 * object that is gone (404, or a new object under the same name) is never written, so a late write
 * cannot bring a deleted object back.
 */
public final class StatusUpdates {
  private static final Logger LOG = LoggerFactory.getLogger(StatusUpdates.class);
  private static final int MAX_ATTEMPTS = 30;
  private static final ObjectMapper TREES = new ObjectMapper();

  private StatusUpdates() {}

  /**
   * Applies {@code change} to the latest version of the object and writes its status. {@code
   * change} returns false when there is nothing to write. Returns the written object, or empty when
   * the object is gone or nothing changed.
   */
  public static <T extends HasMetadata> Optional<T> update(
      KubernetesClient client,
      Class<T> type,
      String namespace,
      String name,
      String uid,
      Predicate<T> change) {
    String described = Describe.of(type.getSimpleName(), namespace, name);
    RuntimeException last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        T latest = client.resources(type).inNamespace(namespace).withName(name).get();
        if (latest == null || (uid != null && !uid.equals(latest.getMetadata().getUid()))) {
          LOG.debug("{} is gone; status not written", described);
          return Optional.empty();
        }
        if (!change.test(latest)) {
          return Optional.empty();
        }
        return Optional.of(
            client.resources(type).inNamespace(namespace).resource(latest).updateStatus());
      } catch (KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
          return Optional.empty();
        }
        last = e;
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          // The API may be briefly unreachable: a terminal status must still land, so back off and
          // retry.
          pause(Duration.ofMillis(Math.min(2000, 50L * attempt)));
        }
      }
    }
    LOG.warn("{} status could not be written after {} attempts", described, MAX_ATTEMPTS, last);
    return Optional.empty();
  }

  /**
   * Replaces the object's status with {@code status}, unless the latest one equals it already as
   * JSON: the model classes do not compare equal to what they read back (a list set to null is read
   * back empty), and a write that changes nothing still brings every watcher an event.
   */
  public static <T extends HasMetadata, S> Optional<T> replace(
      KubernetesClient client,
      Class<T> type,
      T object,
      Function<T, S> statusOf,
      BiConsumer<T, S> setStatus,
      S status) {
    return update(
        client,
        type,
        object.getMetadata().getNamespace(),
        object.getMetadata().getName(),
        object.getMetadata().getUid(),
        latest -> {
          if (sameJson(client, statusOf.apply(latest), status)) {
            return false;
          }
          setStatus.accept(latest, status);
          return true;
        });
  }

  private static boolean sameJson(KubernetesClient client, Object stored, Object wanted) {
    KubernetesSerialization json = client.getKubernetesSerialization();
    return Objects.equals(asTree(json, stored), asTree(json, wanted));
  }

  /** The object as it is written: an empty status and no status are the same thing. */
  private static JsonNode asTree(KubernetesSerialization json, Object value) {
    if (value == null) {
      return null;
    }
    try {
      JsonNode tree = TREES.readTree(json.asJson(value));
      return tree == null || tree.isNull() || tree.isEmpty() ? null : tree;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot read back a status as JSON", e);
    }
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while retrying a status write", e);
    }
  }
}
