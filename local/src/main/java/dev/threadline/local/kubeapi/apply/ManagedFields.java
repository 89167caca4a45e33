package dev.threadline.local.kubeapi.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An object's {@code metadata.managedFields}: who owns which fields, one entry per manager,
 * operation ({@code Apply} or {@code Update}) and subresource, as kube-apiserver keeps them.
 */
final class ManagedFields {
  static final String APPLY = "Apply";
  static final String UPDATE = "Update";

  /** One entry; {@code subresource} is null for the main resource. */
  record Entry(
      String manager,
      String operation,
      String apiVersion,
      String time,
      String subresource,
      FieldSet fields) {

    boolean sameOwner(String otherManager, String otherOperation, String otherSubresource) {
      return manager.equals(otherManager)
          && operation.equals(otherOperation)
          && Objects.equals(subresource, otherSubresource);
    }

    Entry withFields(FieldSet changed, String now) {
      return new Entry(
          manager,
          operation,
          apiVersion,
          changed.equals(fields) ? time : now,
          subresource,
          changed);
    }

    ObjectNode toJson() {
      ObjectNode node = FieldSet.MAPPER.createObjectNode();
      node.put("manager", manager);
      node.put("operation", operation);
      node.put("apiVersion", apiVersion);
      node.put("time", time);
      node.put("fieldsType", "FieldsV1");
      node.set("fieldsV1", fields.toFieldsV1());
      if (subresource != null) {
        node.put("subresource", subresource);
      }
      return node;
    }
  }

  private ManagedFields() {}

  /** The entries of an object (none when it has no valid {@code managedFields}). */
  static List<Entry> read(JsonNode object) {
    List<Entry> entries = new ArrayList<>();
    JsonNode list = object == null ? null : object.path("metadata").get("managedFields");
    if (list == null || !list.isArray()) {
      return entries;
    }
    for (JsonNode node : list) {
      String manager = node.path("manager").asText("");
      String operation = node.path("operation").asText("");
      if (!operation.equals(APPLY) && !operation.equals(UPDATE)) {
        continue;
      }
      entries.add(
          new Entry(
              manager,
              operation,
              node.path("apiVersion").asText(""),
              node.path("time").asText(now()),
              node.hasNonNull("subresource") ? node.get("subresource").asText() : null,
              FieldSet.fromFieldsV1(node.get("fieldsV1"))));
    }
    return entries;
  }

  /** Writes the entries with something in them into {@code object}'s metadata. */
  static void write(ObjectNode object, List<Entry> entries) {
    ObjectNode metadata = metadata(object);
    ArrayNode list = metadata.putArray("managedFields");
    for (Entry entry : entries) {
      if (!entry.fields().isEmpty()) {
        list.add(entry.toJson());
      }
    }
    if (list.isEmpty()) {
      metadata.remove("managedFields");
    }
  }

  static ObjectNode metadata(ObjectNode object) {
    JsonNode metadata = object.get("metadata");
    return metadata instanceof ObjectNode node ? node : object.putObject("metadata");
  }

  static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
