package dev.threadline.local.kubeapi.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A decoded Kubernetes protobuf message as the JSON kube-apiserver would read for it: fields by
 * their names (which the generated types keep as in JSON), maps as objects, bytes in base64, and
 * apimachinery's special types in their JSON forms (Time and MicroTime as RFC 3339, IntOrString as
 * a number or a string, Quantity as its string, RawExtension and FieldsV1 as the JSON they carry).
 */
final class ProtobufJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";

  private ProtobufJson() {}

  static ObjectNode object(Message message) {
    ObjectNode node = NODES.objectNode();
    for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
      FieldDescriptor field = entry.getKey();
      node.set(field.getName(), field(field, entry.getValue()));
    }
    return node;
  }

  private static JsonNode field(FieldDescriptor field, Object value) {
    if (field.isMapField()) {
      ObjectNode map = NODES.objectNode();
      for (Object item : (List<?>) value) {
        Message entry = (Message) item;
        FieldDescriptor key = entry.getDescriptorForType().findFieldByName("key");
        FieldDescriptor val = entry.getDescriptorForType().findFieldByName("value");
        map.set(String.valueOf(entry.getField(key)), single(val, entry.getField(val)));
      }
      return map;
    }
    if (field.isRepeated()) {
      ArrayNode array = NODES.arrayNode();
      ((List<?>) value).forEach(item -> array.add(single(field, item)));
      return array;
    }
    return single(field, value);
  }

  private static JsonNode single(FieldDescriptor field, Object value) {
    return switch (field.getJavaType()) {
      case INT -> NODES.numberNode((Integer) value);
      case LONG -> NODES.numberNode((Long) value);
      case FLOAT -> NODES.numberNode((Float) value);
      case DOUBLE -> NODES.numberNode((Double) value);
      case BOOLEAN -> NODES.booleanNode((Boolean) value);
      case STRING -> NODES.textNode((String) value);
      case BYTE_STRING ->
          NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
      case ENUM -> NODES.textNode(value.toString());
      case MESSAGE -> message((Message) value);
    };
  }

  private static JsonNode message(Message message) {
    String type = message.getDescriptorForType().getFullName();
    switch (type) {
      case META + "Time" -> {
        return NODES.textNode(
            DateTimeFormatter.ISO_INSTANT.format(
                Instant.ofEpochSecond(longField(message, "seconds"))));
      }
      case META + "MicroTime" -> {
        Instant instant =
            Instant.ofEpochSecond(longField(message, "seconds"), longField(message, "nanos"))
                .truncatedTo(ChronoUnit.MICROS);
        return NODES.textNode(DateTimeFormatter.ISO_INSTANT.format(instant));
      }
      case META + "Duration" -> {
        return NODES.textNode(longField(message, "duration") / 1_000_000_000L + "s");
      }
      case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
        return longField(message, "type") == 0
            ? NODES.numberNode(longField(message, "intVal"))
            : NODES.textNode(stringField(message, "strVal"));
      }
      case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
        return NODES.textNode(stringField(message, "string"));
      }
      case "k8s.io.apimachinery.pkg.runtime.RawExtension", META + "FieldsV1" -> {
        return embeddedJson(message, type.endsWith("RawExtension") ? "raw" : "Raw");
      }
      default -> {
        return object(message);
      }
    }
  }

  private static JsonNode embeddedJson(Message message, String fieldName) {
    FieldDescriptor field = message.getDescriptorForType().findFieldByName(fieldName);
    byte[] raw = field == null ? new byte[0] : ((ByteString) message.getField(field)).toByteArray();
    if (raw.length == 0) {
      return NODES.nullNode();
    }
    try {
      return MAPPER.readTree(raw);
    } catch (IOException e) {
      throw new IllegalArgumentException("an embedded object is not JSON: " + e.getMessage());
    }
  }

  private static long longField(Message message, String name) {
    FieldDescriptor field = message.getDescriptorForType().findFieldByName(name);
    return field == null ? 0 : ((Number) message.getField(field)).longValue();
  }

  private static String stringField(Message message, String name) {
    FieldDescriptor field = message.getDescriptorForType().findFieldByName(name);
    return field == null ? "" : (String) message.getField(field);
  }
}
