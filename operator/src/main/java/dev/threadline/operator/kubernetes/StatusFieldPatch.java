package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A patch of one top-level status field: it needs no resourceVersion, so it neither conflicts with
 * nor undoes the status writes of other controllers of the same kind, and they keep the field in
 * theirs. A resource deleted meanwhile is left alone. Both patches go through the object itself: a
 * patch by name would read the object from the API first (fabric8 7 does).
 */
public final class StatusFieldPatch {
  private StatusFieldPatch() {}

  /**
   * Sets one status field of this very object: a JSON patch that first tests the object's uid, so
   * that one deleted and made again under the same name is left alone (the merge patch of {@link
   * #patch} would write into it). Like {@link #patch} it carries no resourceVersion and meets no
   * conflict. The object must have a status.
   *
   * @return the object as written, or empty when it is gone or is another object now
   */
  public static <T extends HasMetadata> Optional<T> set(
      KubernetesClient client, T resource, String field, Object value) {
    return set(client, resource, Map.of(field, value));
  }

  /**
   * Sets several top-level status fields of this very object in one write, as {@link
   * #set(KubernetesClient, HasMetadata, String, Object)} sets one.
   *
   * @return the object as written, or empty when it is gone or is another object now
   */
  public static <T extends HasMetadata> Optional<T> set(
      KubernetesClient client, T resource, Map<String, ?> fields) {
    List<Map<String, Object>> operations = new ArrayList<>();
    operations.add(
        Map.of("op", "test", "path", "/metadata/uid", "value", resource.getMetadata().getUid()));
    new TreeMap<>(fields)
        .forEach((field, value) ->
            operations.add(Map.of("op", "add", "path", "/status/" + field, "value", value)));
    try {
      return Optional.of(
          client
              .resource(resource)
              .subresource("status")
              .patch(
                  PatchContext.of(PatchType.JSON),
                  client.getKubernetesSerialization().asJson(operations)));
    } catch (KubernetesClientException e) {
      // 404: deleted; 422: the uid test failed (another object of that name).
      if (e.getCode() != 404 && e.getCode() != 422) {
        throw e;
      }
      return Optional.empty();
    }
  }

  /** A JSON merge patch: nested objects are merged into what the field holds. */
  public static <T extends HasMetadata> void patch(
      KubernetesClient client, T resource, String field, Object value) {
    try {
      client
          .resource(resource)
          .subresource("status")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              client.getKubernetesSerialization().asJson(Map.of("status", Map.of(field, value))));
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      } // deleted: nothing to write
    }
  }
}
