package dev.threadline.operator.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;

/**
 * A JSON merge patch of one top-level status field: it needs no resourceVersion, so it neither
 * conflicts with nor undoes the status writes of other controllers of the same kind, and they keep
 * the field in theirs. A resource deleted meanwhile is left alone.
 */
public final class StatusFieldPatch {
  private StatusFieldPatch() {}

  public static <T extends HasMetadata> void patch(
      KubernetesClient client, T resource, String field, Object value) {
    @SuppressWarnings("unchecked")
    Class<T> type = (Class<T>) resource.getClass();
    try {
      client
          .resources(type)
          .inNamespace(resource.getMetadata().getNamespace())
          .withName(resource.getMetadata().getName())
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
