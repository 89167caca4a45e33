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
    return inScope(key) && selects(object);
  }

  /**
   * The event as a watch of this selection sees it, or null when it is none of the watch's
   * business. As kube-apiserver's watch cache does, an update that brings an object into the
   * selection is {@code ADDED}, one that takes it out is {@code DELETED} (with the object as it is
   * now), so that a watcher's cache never keeps an object the selection no longer picks.
   */
  WatchEvent seen(WatchEvent event) {
    if (!inScope(event.key())) {
      return null;
    }
    boolean now = selects(event.object());
    if (!event.type().equals(WatchEvent.MODIFIED) || !dependsOnContent()) {
      return now ? event : null;
    }
    JsonNode before = event.previous();
    if (before == null) {
      // The object as it was is not known (its write was compacted away): a watcher that may hold
      // it must not keep it when it is no longer selected.
      return now ? event : event.as(WatchEvent.DELETED);
    }
    boolean then = selects(before);
    if (now) {
      return then ? event : event.as(WatchEvent.ADDED);
    }
    return then ? event.as(WatchEvent.DELETED) : null;
  }

  /** Whether a write can move an object in or out of this selection (by labels or fields). */
  boolean dependsOnContent() {
    return !labels.isEverything() || fields.selectsByContent();
  }

  private boolean inScope(ObjectKey key) {
    return key.resource().equals(resource)
        && (namespace == null || namespace.equals(key.namespace()));
  }

  private boolean selects(JsonNode object) {
    return labels.matches(object) && fields.matches(object);
  }
}
