package dev.threadline.local.kubeapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The OpenAPI documents an API server publishes, built from the CRDs' schemas: v3 per group version
 * ({@code /openapi/v3/apis/threadline.dev/v1alpha1}, which {@code kubectl explain} reads) with the
 * index at {@code /openapi/v3}, and v2 as JSON. Each kind's PATCH operation declares the {@code
 * fieldValidation} parameter, which is how kubectl learns that the server validates fields itself
 * and sends {@code fieldValidation=Strict}. Built-in kinds have no schema here.
 */
final class OpenApiDocuments {
  private OpenApiDocuments() {}

  /** {@code /openapi/v3}: where each group version's document is. */
  static ObjectNode v3Index(ResourceCatalog catalog) {
    ObjectNode index = Json.object();
    ObjectNode paths = index.putObject("paths");
    for (Map.Entry<String, List<String>> group : catalog.groupVersions().entrySet()) {
      for (String version : group.getValue()) {
        if (!withSchema(catalog, group.getKey(), version).isEmpty()) {
          String path = "apis/" + group.getKey() + "/" + version;
          paths.putObject(path).put("serverRelativeURL", "/openapi/v3/" + path);
        }
      }
    }
    return index;
  }

  /** {@code /openapi/v3/apis/{group}/{version}}; empty for a group version without schemas. */
  static Optional<ObjectNode> v3(ResourceCatalog catalog, String group, String version) {
    List<ResourceType> types = withSchema(catalog, group, version);
    if (types.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode document = Json.object();
    document.put("openapi", "3.0.0");
    document.putObject("info").put("title", "Threadline local mode").put("version", version);
    ObjectNode paths = document.putObject("paths");
    ObjectNode schemas = document.putObject("components").putObject("schemas");
    for (ResourceType type : types) {
      schemas.set(definitionName(type), definition(type));
      ObjectNode patch = paths.putObject(objectPath(type)).putObject("patch");
      patch.set("x-kubernetes-group-version-kind", gvk(type));
      patch
          .putArray("parameters")
          .addObject()
          .put("name", "fieldValidation")
          .put("in", "query")
          .put("description", "Strict, Warn or Ignore: what to do with fields the schema lacks")
          .putObject("schema")
          .put("type", "string");
      patch.putObject("responses").putObject("200").put("description", "OK");
    }
    return Optional.of(document);
  }

  /** {@code /openapi/v2} as JSON: every kind with a schema, no paths. */
  static ObjectNode v2(ResourceCatalog catalog) {
    ObjectNode document = Json.object();
    document.put("swagger", "2.0");
    document.putObject("info").put("title", "Threadline local mode").put("version", "v1");
    document.putObject("paths");
    ObjectNode definitions = document.putObject("definitions");
    for (Map.Entry<String, List<String>> group : catalog.groupVersions().entrySet()) {
      for (String version : group.getValue()) {
        for (ResourceType type : withSchema(catalog, group.getKey(), version)) {
          ObjectNode definition = definition(type);
          ArrayNode list = Json.MAPPER.createArrayNode().add(definition.remove(GVK).get(0));
          definition.set(GVK, list);
          definitions.set(definitionName(type), definition);
        }
      }
    }
    return document;
  }

  private static final String GVK = "x-kubernetes-group-version-kind";

  private static List<ResourceType> withSchema(
      ResourceCatalog catalog, String group, String version) {
    return catalog.resources(group, version).stream().filter(t -> t.schema() != null).toList();
  }

  private static ObjectNode definition(ResourceType type) {
    ObjectNode definition = ((ObjectNode) type.schema()).deepCopy();
    definition.putArray(GVK).add(gvk(type));
    return definition;
  }

  private static ObjectNode gvk(ResourceType type) {
    ObjectNode gvk = Json.object();
    gvk.put("group", type.group());
    gvk.put("kind", type.kind());
    gvk.put("version", type.version());
    return gvk;
  }

  /** {@code dev.threadline.v1alpha1.Environment}: the group reversed, as Kubernetes names them. */
  private static String definitionName(ResourceType type) {
    List<String> parts = new java.util.ArrayList<>(List.of(type.group().split("\\.")));
    java.util.Collections.reverse(parts);
    return String.join(".", parts) + "." + type.version() + "." + type.kind();
  }

  private static String objectPath(ResourceType type) {
    String base = "/apis/" + type.group() + "/" + type.version();
    return type.namespaced()
        ? base + "/namespaces/{namespace}/" + type.plural() + "/{name}"
        : base + "/" + type.plural() + "/{name}";
  }
}
