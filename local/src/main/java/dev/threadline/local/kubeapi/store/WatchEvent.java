package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * One event of a watch, written once as the line a client receives ({@code
 * {"type":"ADDED","object":{...}}}) and shared by every watcher it goes to. An update also knows
 * the object as it was before (its JSON, read only when a watch's selection asks), so that a watch
 * whose selection the object enters or leaves gets {@code ADDED} or {@code DELETED} instead ({@link
 * #as}).
 */
final class WatchEvent {
  static final String ADDED = "ADDED";
  static final String MODIFIED = "MODIFIED";
  static final String DELETED = "DELETED";
  static final String BOOKMARK = "BOOKMARK";
  static final String ERROR = "ERROR";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String type;
  private final ObjectKey key;
  private final ObjectNode object;
  private final String body;
  private final String previousBody;
  private volatile String line;
  private volatile ObjectNode previous;
  private Map<String, WatchEvent> retyped;

  WatchEvent(String type, ObjectKey key, ObjectNode object) {
    this(type, key, object, null, null);
  }

  /**
   * An event of a write, whose object the store has already written as {@code body}: the line is
   * made around it instead of writing the object again.
   *
   * @param previousBody an update's object as it was before, or null (not an update, or not known)
   */
  WatchEvent(String type, ObjectKey key, ObjectNode object, String body, String previousBody) {
    this.type = type;
    this.key = key;
    this.object = object;
    this.body = body;
    this.previousBody = previousBody;
    if (body != null) {
      this.line = "{\"type\":\"" + type + "\",\"object\":" + body + "}";
    }
  }

  /**
   * The {@code Status} event that ends a watch which cannot go on; {@code 410 Expired} makes
   * clients list again and watch from the list's resourceVersion.
   */
  static WatchEvent gone(String message) {
    ObjectNode status = MAPPER.createObjectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", message);
    status.put("reason", "Expired");
    status.put("code", 410);
    return new WatchEvent(ERROR, null, status);
  }

  String type() {
    return type;
  }

  /** The key of the object, null for bookmarks and errors. */
  ObjectKey key() {
    return key;
  }

  ObjectNode object() {
    return object;
  }

  /** An update's object as it was before, parsed on first use; null when not known. */
  ObjectNode previous() {
    ObjectNode parsed = previous;
    if (parsed == null && previousBody != null) {
      parsed = ObjectStore.parse(previousBody);
      previous = parsed;
    }
    return parsed;
  }

  /**
   * This event as a watch of another type sees it ({@code ADDED} when the object entered the
   * watch's selection, {@code DELETED} when it left), with the same object; made once and shared by
   * the watches that see it so. Called under the store's write lock only.
   */
  WatchEvent as(String otherType) {
    if (otherType.equals(type)) {
      return this;
    }
    if (retyped == null) {
      retyped = new HashMap<>(4);
    }
    return retyped.computeIfAbsent(
        otherType, other -> new WatchEvent(other, key, object, body, null));
  }

  String line() {
    String written = line;
    if (written == null) {
      ObjectNode event = MAPPER.createObjectNode();
      event.put("type", type);
      event.set("object", object);
      try {
        written = MAPPER.writeValueAsString(event);
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
      line = written;
    }
    return written;
  }
}
