package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * What the API server sets on objects around the store: identity and timestamps on create, the
 * status subresource's split (the main resource cannot change the status, {@code /status} can
 * change nothing else), and the generation, which counts changes of everything but metadata and
 * status.
 */
final class ObjectLifecycle {
  /** Metadata fields only the server sets; a write cannot change them. */
  private static final List<String> SERVER_METADATA =
      List.of("uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds");

  private ObjectLifecycle() {}

  /** Makes {@code object} a new object at {@code path}; returns why it cannot be, or null. */
  static ApiResponse prepareCreate(ApiPath path, ResourceType type, ObjectNode object) {
    ObjectNode metadata = Json.metadata(object);
    String namespace = Json.text(metadata, "namespace");
    if (type.namespaced()) {
      if (namespace != null && !namespace.isEmpty() && !namespace.equals(path.namespace())) {
        return KubeStatus.badRequest(
            "the namespace of the provided object does not match the namespace sent on the"
                + " request");
      }
      metadata.put("namespace", path.namespace());
    } else {
      metadata.remove("namespace");
    }
    String name = Json.text(metadata, "name");
    if (name == null || name.isEmpty()) {
      return KubeStatus.failure(
          422,
          "Invalid",
          type.kind()
              + " \"\" is invalid: metadata.name: Required value: name or generateName is"
              + " required");
    }
    metadata.remove("resourceVersion");
    metadata.remove("deletionTimestamp");
    metadata.remove("deletionGracePeriodSeconds");
    metadata.put("uid", UUID.randomUUID().toString());
    metadata.put("creationTimestamp", now());
    metadata.put("generation", 1);
    if (type.statusSubresource()) {
      object.remove("status");
    }
    return null;
  }

  /**
   * The object that replaces {@code current} when {@code sent} is written to {@code path} (the main
   * resource or its {@code /status}).
   */
  static ObjectNode replacement(
      ApiPath path, ResourceType type, JsonNode current, ObjectNode sent) {
    ObjectNode next;
    if (path.isStatus()) {
      next = ((ObjectNode) current).deepCopy();
      if (sent.has("status")) {
        next.set("status", sent.get("status"));
      } else {
        next.remove("status");
      }
      return next;
    }
    next = sent.deepCopy();
    next.put("apiVersion", Json.text(current, "apiVersion"));
    next.put("kind", Json.text(current, "kind"));
    if (type.statusSubresource()) {
      if (current.has("status")) {
        next.set("status", current.get("status"));
      } else {
        next.remove("status");
      }
    }
    ObjectNode metadata = Json.metadata(next);
    JsonNode currentMetadata = current.path("metadata");
    for (String field : SERVER_METADATA) {
      if (currentMetadata.has(field)) {
        metadata.set(field, currentMetadata.get(field));
      } else {
        metadata.remove(field);
      }
    }
    metadata.put("name", Json.text(currentMetadata, "name"));
    if (currentMetadata.has("namespace")) {
      metadata.put("namespace", Json.text(currentMetadata, "namespace"));
    }
    long generation = currentMetadata.path("generation").asLong(1);
    metadata.put("generation", contentChanged(current, next) ? generation + 1 : generation);
    return next;
  }

  /** Whether an object with a deletion timestamp has lost its last finalizer. */
  static boolean finished(JsonNode object) {
    JsonNode metadata = object.path("metadata");
    JsonNode finalizers = metadata.path("finalizers");
    return metadata.hasNonNull("deletionTimestamp")
        && (!finalizers.isArray() || finalizers.isEmpty());
  }

  static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static boolean contentChanged(JsonNode before, ObjectNode after) {
    ObjectNode a = ((ObjectNode) before).deepCopy();
    ObjectNode b = after.deepCopy();
    for (ObjectNode node : List.of(a, b)) {
      node.remove("metadata");
      node.remove("status");
    }
    return !a.equals(b);
  }
}
