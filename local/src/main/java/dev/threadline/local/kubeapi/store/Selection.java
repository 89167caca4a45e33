package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * Which objects a list or a watch is about.
 *
 * @param resource the qualified resource ({@link ObjectKey#resource()})
 * @param namespace one namespace, or null for all
 */
public record Selection(
    String resource, String namespace, LabelSelector labels, FieldSelector fields) {
  public Selection {
    Objects.requireNonNull(resource, "resource");
    labels = labels == null ? LabelSelector.everything() : labels;
    fields = fields == null ? FieldSelector.everything() : fields;
  }

  public static Selection all(String resource) {
    return new Selection(resource, null, null, null);
  }

  boolean matches(ObjectKey key, JsonNode object) {
    return key.resource().equals(resource)
        && (namespace == null || namespace.equals(key.namespace()))
        && labels.matches(object)
        && fields.matches(object);
  }
}
