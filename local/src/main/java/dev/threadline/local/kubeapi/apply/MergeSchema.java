package dev.threadline.local.kubeapi.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * How one node of an object merges, as structured-merge-diff reads a schema: a struct or a map
 * merges field by field unless {@code x-kubernetes-map-type: atomic}; a list is atomic (replaced
 * whole) unless {@code x-kubernetes-list-type} is {@code set} (items by value) or {@code map}
 * (items by their {@code x-kubernetes-list-map-keys}). A CRD's openAPIV3Schema says so; built-in
 * kinds have no schema here, so their lists merge by the keys Kubernetes gives them (containers,
 * env and volumes by name, ports by number…) and every other list is atomic, as in a cluster's
 * deduced schema. Object metadata is the same for every kind.
 */
public final class MergeSchema {
  /** How the items of a list are told apart. */
  public enum ListType {
    ATOMIC,
    SET,
    MAP
  }

  /** Known list keys of built-in kinds and of metadata, by field name (and parent for ports). */
  private static final Map<String, List<String>> BUILTIN_LIST_KEYS =
      Map.ofEntries(
          Map.entry("containers", List.of("name")),
          Map.entry("initContainers", List.of("name")),
          Map.entry("ephemeralContainers", List.of("name")),
          Map.entry("env", List.of("name")),
          Map.entry("volumes", List.of("name")),
          Map.entry("volumeMounts", List.of("mountPath")),
          Map.entry("volumeDevices", List.of("devicePath")),
          Map.entry("imagePullSecrets", List.of("name")),
          Map.entry("hostAliases", List.of("ip")),
          Map.entry("ownerReferences", List.of("uid")),
          Map.entry("conditions", List.of("type")));

  private static final MergeSchema METADATA = new MergeSchema(null, "metadata", false);

  private final JsonNode schema;
  private final String name;
  private final boolean inContainer;

  private MergeSchema(JsonNode schema, String name, boolean inContainer) {
    this.schema = schema == null || schema.isMissingNode() ? null : schema;
    this.name = name;
    this.inContainer = inContainer;
  }

  /** The root of a kind: its CRD version's openAPIV3Schema, or null for a built-in kind. */
  public static MergeSchema root(JsonNode openApiV3Schema) {
    return new MergeSchema(openApiV3Schema, "", false);
  }

  /** Whether this is a CRD's schema rather than a built-in kind's known keys. */
  boolean declared() {
    return schema != null;
  }

  /** The schema of field {@code field} of this object (declared, a map's values, or unknown). */
  public MergeSchema field(String field) {
    if (name.isEmpty() && field.equals("metadata")) {
      return METADATA;
    }
    if (schema == null) {
      boolean container =
          name.equals("containers")
              || name.equals("initContainers")
              || name.equals("ephemeralContainers");
      return new MergeSchema(null, field, container);
    }
    JsonNode declared = schema.path("properties").path(field);
    if (!declared.isMissingNode()) {
      return new MergeSchema(declared, field, false);
    }
    JsonNode additional = schema.path("additionalProperties");
    return new MergeSchema(additional.isObject() ? additional : null, field, false);
  }

  /** Whether {@code field} is a declared property (a struct's field) rather than a map's key. */
  boolean isStructField(String field) {
    return schema != null && schema.path("properties").has(field);
  }

  /** The schema of this list's items. */
  public MergeSchema items() {
    if (schema == null) {
      return new MergeSchema(null, name, inContainer);
    }
    return new MergeSchema(schema.path("items"), name, false);
  }

  boolean atomicMap() {
    return schema != null && "atomic".equals(schema.path("x-kubernetes-map-type").asText(""));
  }

  ListType listType() {
    if (schema != null) {
      return switch (schema.path("x-kubernetes-list-type").asText("atomic")) {
        case "set" -> ListType.SET;
        case "map" -> ListType.MAP;
        default -> ListType.ATOMIC;
      };
    }
    if (name.equals("finalizers")) {
      return ListType.SET;
    }
    return listKeys().isEmpty() ? ListType.ATOMIC : ListType.MAP;
  }

  /** The fields that identify an item of a {@link ListType#MAP} list. */
  List<String> listKeys() {
    if (schema != null) {
      JsonNode keys = schema.path("x-kubernetes-list-map-keys");
      return keys.isArray()
          ? java.util.stream.StreamSupport.stream(keys.spliterator(), false)
              .map(JsonNode::asText)
              .toList()
          : List.of();
    }
    if (name.equals("ports")) {
      return inContainer ? List.of("containerPort", "protocol") : List.of("port", "protocol");
    }
    return BUILTIN_LIST_KEYS.getOrDefault(name, List.of());
  }

  /** The single merge key a strategic merge patch uses for this list, or null (replaced whole). */
  public String patchMergeKey() {
    if (schema != null || listType() != ListType.MAP) {
      return null;
    }
    return listKeys().get(0);
  }

  /** For a strategic merge patch: whether this list merges its primitive values as a set. */
  public boolean primitiveSet() {
    return listType() == ListType.SET;
  }
}
