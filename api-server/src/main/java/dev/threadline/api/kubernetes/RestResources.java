package dev.threadline.api.kubernetes;

import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.common.Timestamps;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The metadata the API server keeps on the custom resources clients manage through REST (agents,
 * environments, schedules, threads): the managed-by label, the updated-at annotation, and names a
 * REST id can address.
 */
public final class RestResources {
  private RestResources() {}

  /**
   * Whether a REST id can name {@code resource}: one made with {@code kubectl} under another name
   * (without the kind's {@code idPrefix}) could be listed but never fetched, so it is not listed
   * either.
   */
  public static boolean hasRestId(HasMetadata resource, String idPrefix) {
    String name = resource.getMetadata().getName();
    return ResourceIds.isValidName(name)
        && ResourceIds.toName(ResourceIds.toId(name), idPrefix).isPresent();
  }

  /** The metadata of a resource a client creates: managed by Threadline, updated {@code now}. */
  public static ObjectMeta newMetadata(String namespace, String name, Instant now) {
    return new ObjectMetaBuilder()
        .withNamespace(namespace)
        .withName(name)
        .withLabels(new LinkedHashMap<>(Map.of(Labels.MANAGED_BY, Labels.MANAGER)))
        .withAnnotations(
            new LinkedHashMap<>(Map.of(Annotations.UPDATED_AT, Timestamps.format(now))))
        .build();
  }

  /** Records a change the client made; {@code resource} must be a private copy. */
  public static void touch(HasMetadata resource, Instant now) {
    setAnnotation(resource, Annotations.UPDATED_AT, Timestamps.format(now));
  }

  /** Sets an annotation, or removes it when {@code value} is null; on a private copy only. */
  public static void setAnnotation(HasMetadata resource, String key, String value) {
    Map<String, String> annotations =
        new LinkedHashMap<>(
            Optional.ofNullable(resource.getMetadata().getAnnotations()).orElse(Map.of()));
    if (value == null) {
      annotations.remove(key);
    } else {
      annotations.put(key, value);
    }
    resource.getMetadata().setAnnotations(annotations);
  }

  public static String annotation(HasMetadata resource, String key) {
    Map<String, String> annotations = resource.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  /**
   * The REST {@code updatedAt}: the client's last change, else {@code created}. Our annotation is
   * written just before the API server stamps creationTimestamp (whole seconds, its own clock), so
   * it never reads as earlier than {@code created}.
   */
  public static Instant updatedAt(HasMetadata resource, Instant created) {
    return Optional.ofNullable(annotation(resource, Annotations.UPDATED_AT))
        .flatMap(Timestamps::parse)
        .filter(time -> created == null || !time.isBefore(created))
        .orElse(created);
  }
}
