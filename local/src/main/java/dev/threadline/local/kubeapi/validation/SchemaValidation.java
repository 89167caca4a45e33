package dev.threadline.local.kubeapi.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import com.networknt.schema.path.NodePath;
import com.networknt.schema.path.PathType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A CRD's structural schema checked on every write as kube-apiserver checks it: types, enums,
 * formats, patterns, required fields, bounds and lengths, by networknt's JSON Schema validator
 * (OpenAPI 3.0 dialect, the one CRD schemas are written in), with its errors worded and placed as
 * kube-apiserver words them ({@link KubeSchemaErrors}). Patterns run on RE2J, linear as the API
 * server's RE2; nothing is ever fetched ({@code $ref} is not allowed in a structural schema).
 */
public final class SchemaValidation {
  /** One refused field: kube's cause type, field path ({@code spec.size}) and message. */
  public record Problem(String reason, String field, String message) {}

  /** Kubernetes' extensions: the merge, pruning and CEL steps read them, not this validation. */
  private static final List<String> KUBERNETES_KEYWORDS =
      List.of(
          "x-kubernetes-int-or-string",
          "x-kubernetes-preserve-unknown-fields",
          "x-kubernetes-embedded-resource",
          "x-kubernetes-list-type",
          "x-kubernetes-list-map-keys",
          "x-kubernetes-map-type",
          "x-kubernetes-validations");

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(
          Dialect.builder(Dialects.getOpenApi30())
              .keywords(KUBERNETES_KEYWORDS.stream().map(NonValidationKeyword::new).toList())
              .build(),
          builder ->
              builder
                  .schemaLoader(loader -> loader.fetchRemoteResources(false))
                  .schemaRegistryConfig(
                      SchemaRegistryConfig.builder()
                          .pathType(PathType.JSON_POINTER)
                          .formatAssertionsEnabled(true)
                          .regularExpressionFactory(Re2jRegularExpressions.INSTANCE)
                          .build()));

  /** Compiled schemas by their CRD schema (weak: a schema replaced by a CRD update goes). */
  private static final Map<JsonNode, Schema> COMPILED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private SchemaValidation() {}

  /**
   * What {@code object} breaks of {@code openApiV3Schema}, in document order; empty without a
   * schema. {@code apiVersion}, {@code kind} and {@code metadata} are the server's to check.
   */
  public static List<Problem> check(JsonNode openApiV3Schema, JsonNode object) {
    if (openApiV3Schema == null || !openApiV3Schema.isObject() || object == null) {
      return List.of();
    }
    Schema schema = COMPILED.computeIfAbsent(openApiV3Schema, SchemaValidation::compile);
    List<Problem> problems = new ArrayList<>();
    for (Error error : schema.validate(object)) {
      if (isServerField(error.getInstanceLocation())) {
        continue;
      }
      Problem problem = KubeSchemaErrors.toProblem(error, fieldPath(error.getInstanceLocation()));
      if (problem != null && !problems.contains(problem)) {
        problems.add(problem);
      }
    }
    return problems;
  }

  private static Schema compile(JsonNode openApiV3Schema) {
    return REGISTRY.getSchema(openApiV3Schema);
  }

  private static boolean isServerField(NodePath location) {
    if (location.getNameCount() == 0) {
      return false;
    }
    Object first = location.getElement(0);
    return "metadata".equals(first) || "apiVersion".equals(first) || "kind".equals(first);
  }

  /** A JSON location as kube writes a field path: {@code spec.mcpServers[0].name}. */
  static String fieldPath(NodePath location) {
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < location.getNameCount(); i++) {
      Object element = location.getElement(i);
      if (element instanceof Integer index) {
        path.append('[').append(index).append(']');
      } else {
        if (!path.isEmpty()) {
          path.append('.');
        }
        path.append(element);
      }
    }
    return path.toString();
  }
}
