package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/**
 * One event of a watch, written once as the line a client receives ({@code
 * {"type":"ADDED","object":{...}}}) and shared by every watcher it goes to.
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
  private volatile String line;

  WatchEvent(String type, ObjectKey key, ObjectNode object) {
    this.type = type;
    this.key = key;
    this.object = object;
  }

  /**
   * An event of a write, whose object the store has already written as {@code body}: the line is
   * made around it instead of writing the object again.
   */
  WatchEvent(String type, ObjectKey key, ObjectNode object, String body) {
    this(type, key, object);
    this.line = "{\"type\":\"" + type + "\",\"object\":" + body + "}";
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
