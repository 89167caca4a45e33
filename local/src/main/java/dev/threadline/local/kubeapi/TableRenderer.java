package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds the {@code meta.k8s.io/v1 Table} that {@code kubectl get} asks for, from a resource type's
 * printer columns. Date cells are ages ("5m"), rendered here as the API server does.
 */
final class TableRenderer {
  private TableRenderer() {}

  /**
   * @param document a list (with {@code items}) or a single object
   * @param includeObject the request's {@code includeObject}: None, Metadata (default) or Object
   * @param withColumnDefinitions false for watch events after the first, as the API server does
   */
  static ObjectNode render(
      ResourceType type,
      JsonNode document,
      String includeObject,
      boolean withColumnDefinitions,
      Instant now) {
    ObjectNode table = Json.object();
    table.put("kind", "Table");
    table.put("apiVersion", "meta.k8s.io/v1");
    ObjectNode metadata = table.putObject("metadata");
    String resourceVersion = Json.text(document, "metadata", "resourceVersion");
    if (resourceVersion != null) {
      metadata.put("resourceVersion", resourceVersion);
    }
    ArrayNode definitions = table.putArray("columnDefinitions");
    if (withColumnDefinitions) {
      for (PrinterColumn column : type.columns()) {
        ObjectNode definition = definitions.addObject();
        definition.put("name", column.name());
        definition.put("type", column.type());
        definition.put("format", column.format());
        definition.put("description", column.description());
        definition.put("priority", column.priority());
      }
    }
    ArrayNode rows = table.putArray("rows");
    List<JsonNode> objects = new ArrayList<>();
    if (document.has("items")) {
      document.get("items").forEach(objects::add);
    } else {
      objects.add(document);
    }
    for (JsonNode object : objects) {
      ObjectNode row = rows.addObject();
      ArrayNode cells = row.putArray("cells");
      for (PrinterColumn column : type.columns()) {
        cells.add(cell(column, object, now));
      }
      JsonNode rowObject = rowObject(object, includeObject);
      if (rowObject != null) {
        row.set("object", rowObject);
      }
    }
    return table;
  }

  private static JsonNode rowObject(JsonNode object, String includeObject) {
    if ("None".equals(includeObject)) {
      return null;
    }
    if ("Object".equals(includeObject)) {
      return object;
    }
    ObjectNode partial = Json.object();
    partial.put("kind", "PartialObjectMetadata");
    partial.put("apiVersion", "meta.k8s.io/v1");
    partial.set("metadata", object.path("metadata").deepCopy());
    return partial;
  }

  static JsonNode cell(PrinterColumn column, JsonNode object, Instant now) {
    if (column.jsonPath().startsWith("pod:")) {
      return Json.MAPPER.getNodeFactory().textNode(podCell(column.jsonPath(), object));
    }
    Optional<JsonNode> value;
    try {
      value = SimpleJsonPath.compile(column.jsonPath()).first(object);
    } catch (IllegalArgumentException e) {
      value = Optional.empty();
    }
    if (value.isEmpty()) {
      return Json.MAPPER.getNodeFactory().nullNode();
    }
    JsonNode v = value.get();
    var nodes = Json.MAPPER.getNodeFactory();
    return switch (column.type()) {
      case "integer" -> v.isIntegralNumber() ? nodes.numberNode(v.asLong()) : parseNumber(v, true);
      case "number" -> v.isNumber() ? v : parseNumber(v, false);
      case "boolean" -> v.isBoolean() ? v : nodes.booleanNode(Boolean.parseBoolean(v.asText()));
      case "date" -> nodes.textNode(HumanDuration.since(v.asText(), now));
      default -> v.isContainerNode() ? nodes.textNode(Json.write(v)) : nodes.textNode(v.asText());
    };
  }

  private static JsonNode parseNumber(JsonNode value, boolean integral) {
    var nodes = Json.MAPPER.getNodeFactory();
    try {
      return integral
          ? nodes.numberNode(Long.parseLong(value.asText()))
          : nodes.numberNode(Double.parseDouble(value.asText()));
    } catch (NumberFormatException e) {
      return nodes.nullNode();
    }
  }

  /** The computed Pod columns, close to kubectl's own printer. */
  private static String podCell(String which, JsonNode pod) {
    JsonNode statuses = pod.path("status").path("containerStatuses");
    return switch (which) {
      case "pod:ready" -> {
        int ready = 0;
        for (JsonNode s : statuses) {
          if (s.path("ready").asBoolean(false)) {
            ready++;
          }
        }
        yield ready + "/" + pod.path("spec").path("containers").size();
      }
      case "pod:restarts" -> {
        long restarts = 0;
        for (JsonNode s : statuses) {
          restarts += s.path("restartCount").asLong(0);
        }
        yield Long.toString(restarts);
      }
      default -> podStatus(pod, statuses);
    };
  }

  private static String podStatus(JsonNode pod, JsonNode statuses) {
    if (pod.path("metadata").hasNonNull("deletionTimestamp")) {
      return "Terminating";
    }
    String reason = Json.text(pod, "status", "reason");
    if (reason != null && !reason.isEmpty()) {
      return reason;
    }
    for (JsonNode s : statuses) {
      String waiting = Json.text(s, "state", "waiting", "reason");
      if (waiting != null && !waiting.isEmpty()) {
        return waiting;
      }
      String terminated = Json.text(s, "state", "terminated", "reason");
      if (terminated != null && !terminated.isEmpty()) {
        return terminated;
      }
    }
    String phase = Json.text(pod, "status", "phase");
    return phase == null ? "Pending" : phase;
  }
}
