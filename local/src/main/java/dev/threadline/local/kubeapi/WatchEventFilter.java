package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * Makes the store's watch events what a client asked for. A watch from resourceVersion N must not
 * replay objects the client already has, but the store starts every watch with an ADDED event per
 * existing object: those at or below N are dropped. For {@code kubectl get -w}, which asks for
 * Tables, each event's object becomes a one-row Table (column definitions in the first event only).
 * Not thread-safe: a watch's events are sent one after another.
 */
final class WatchEventFilter {
  private final long sinceResourceVersion;
  private final ResourceType tableType;
  private final String includeObject;
  private boolean firstTable = true;

  /**
   * @param sinceResourceVersion the watch request's resourceVersion (null or "0": replay all)
   * @param tableType the type whose columns to render, or null for plain objects
   */
  WatchEventFilter(String sinceResourceVersion, ResourceType tableType, String includeObject) {
    this.sinceResourceVersion = parse(sinceResourceVersion);
    this.tableType = tableType;
    this.includeObject = includeObject;
  }

  /** The event to send, or null to drop it. */
  String apply(String event) {
    if (sinceResourceVersion <= 0 && tableType == null) {
      return event;
    }
    JsonNode node = Json.parse(event);
    String type = Json.text(node, "type");
    if ("ERROR".equals(type) || "BOOKMARK".equals(type)) {
      return event;
    }
    JsonNode object = node.path("object");
    if ("ADDED".equals(type)
        && parse(Json.text(object, "metadata", "resourceVersion")) <= sinceResourceVersion
        && sinceResourceVersion > 0) {
      return null;
    }
    if (tableType == null) {
      return event;
    }
    ((ObjectNode) node)
        .set(
            "object",
            TableRenderer.render(tableType, object, includeObject, firstTable, Instant.now()));
    firstTable = false;
    return Json.write(node);
  }

  /** A resourceVersion as a revision; 0 (from the start) when absent or not one of ours. */
  static long parse(String resourceVersion) {
    if (resourceVersion == null || resourceVersion.isEmpty()) {
      return 0;
    }
    try {
      return Long.parseLong(resourceVersion);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
