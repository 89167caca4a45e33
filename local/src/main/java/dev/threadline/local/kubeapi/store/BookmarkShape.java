package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The kind and apiVersion a watch's bookmarks carry: clients decode a bookmark's object as the
 * watched kind, with only its resourceVersion set.
 */
public record BookmarkShape(String apiVersion, String kind) {
  WatchEvent at(long revision) {
    ObjectNode object = JsonNodeFactory.instance.objectNode();
    object.put("apiVersion", apiVersion);
    object.put("kind", kind);
    object.putObject("metadata").put("resourceVersion", Long.toString(revision));
    return new WatchEvent(WatchEvent.BOOKMARK, null, object);
  }
}
