package dev.threadline.api.containers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.threadline.api.common.SuccessResponse;
import dev.threadline.api.openapi.OpenApiDocument;
import dev.threadline.api.paging.ListEnvelope;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * The container API's part of the OpenAPI document describes exactly what the controllers serve and
 * return.
 */
class ContainersOpenApiTest {
  private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete");
  private static final String CONTAINERS = "/api/v1/containers";
  private static JsonNode document;

  /** The schemas (or media types) that may document each handler body type. */
  private static final Map<Class<?>, Set<String>> RESPONSE_SCHEMAS =
      Map.of(
          ContainerResponses.Single.class, Set.of("ContainerResponse"),
          ListEnvelope.class, Set.of("ContainerList"),
          SuccessResponse.class, Set.of("Success"),
          ContainerResponses.Health.class, Set.of("Health"),
          ContainerResponses.Logs.class, Set.of("Logs"),
          tools.jackson.databind.JsonNode.class, Set.of("FileList", "FileWritten", "FileDeleted"),
          void.class, Set.of("application/octet-stream"));

  @BeforeAll
  static void readDocument() throws IOException {
    try (InputStream yaml =
        ContainersOpenApiTest.class.getResourceAsStream(OpenApiDocument.RESOURCE)) {
      document = new YAMLMapper().readTree(yaml);
    }
  }

  @Test
  void everyServedOperationIsDocumentedAndNothingElse() {
    Set<String> documented = new TreeSet<>();
    document.path("paths").properties().stream()
        .filter(path -> path.getKey().startsWith(CONTAINERS))
        .forEach(path ->
            METHODS.stream()
                .filter(method -> path.getValue().has(method))
                .forEach(method ->
                    documented.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));

    Set<String> served = new TreeSet<>();
    served.addAll(operations(ContainerController.class));
    served.addAll(operations(ContainerFilesController.class));

    assertThat(documented).isEqualTo(served).hasSize(13);
  }

  @Test
  void everyOperationHasASuccessAndDocumentedErrors() {
    document.path("paths").properties().stream()
        .filter(path -> path.getKey().startsWith(CONTAINERS))
        .forEach(path ->
            METHODS.stream()
                .filter(method -> path.getValue().has(method))
                .forEach(method -> {
                  JsonNode responses = path.getValue().path(method).path("responses");
                  assertThat(
                          responses.properties().stream().map(java.util.Map.Entry::getKey).toList())
                      .as("%s %s", method, path.getKey())
                      .anyMatch(status -> status.startsWith("2"))
                      .contains("401");
                }));
  }

  @Test
  void schemasNameTheFieldsTheResponsesCarry() {
    assertThat(schemaFields("Container")).isEqualTo(components(ContainerView.class));
    assertThat(schemaFields("McpServerView"))
        .isEqualTo(components(ContainerView.McpServerView.class));
    assertThat(schemaFields("Health")).isEqualTo(components(ContainerResponses.Health.class));
    assertThat(schemaFields("Logs")).isEqualTo(components(ContainerResponses.Logs.class));
    assertThat(schemaFields("ContainerCreate"))
        .isEqualTo(components(ContainerRequests.Create.class));
    assertThat(schemaFields("McpServerInput"))
        .isEqualTo(components(ContainerRequests.McpServerInput.class));
    assertThat(schemaFields("ContainerResponse"))
        .isEqualTo(components(ContainerResponses.Single.class));
    assertThat(schemaFields("Success")).isEqualTo(components(SuccessResponse.class));
  }

  /**
   * The success answer each operation documents is the one its handler returns: the schema of the
   * handler's body type, the file API's JSON passed through for file operations, raw bytes for a
   * download.
   */
  @Test
  void everyOperationDocumentsTheResponseItsHandlerReturns() {
    Map<String, Method> handlers = new TreeMap<>();
    handlers.putAll(handlers(ContainerController.class));
    handlers.putAll(handlers(ContainerFilesController.class));

    handlers.forEach((operation, handler) -> {
      String[] verbAndPath = operation.split(" ", 2);
      JsonNode responses =
          document
              .path("paths")
              .path(verbAndPath[1])
              .path(verbAndPath[0].toLowerCase(Locale.ROOT))
              .path("responses");
      Set<String> documented = new TreeSet<>();
      responses
          .properties()
          .forEach(response -> {
            if (response.getKey().startsWith("2")) {
              JsonNode content = response.getValue().path("content");
              content
                  .properties()
                  .forEach(type -> {
                    String ref = type.getValue().path("schema").path("$ref").asText("");
                    documented.add(
                        ref.isEmpty() ? type.getKey() : ref.substring(ref.lastIndexOf('/') + 1));
                  });
            }
          });
      assertThat(documented)
          .as("%s answers %s", operation, bodyType(handler).getSimpleName())
          .isNotEmpty()
          .isSubsetOf(RESPONSE_SCHEMAS.get(bodyType(handler)));
    });
  }

  private static Set<String> schemaFields(String schema) {
    Set<String> fields = new TreeSet<>();
    document
        .path("components")
        .path("schemas")
        .path(schema)
        .path("properties")
        .properties()
        .forEach(field -> fields.add(field.getKey()));
    return fields;
  }

  private static Set<String> components(Class<? extends Record> type) {
    return Arrays.stream(type.getRecordComponents())
        .map(RecordComponent::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> operations(Class<?> controller) {
    return handlers(controller).keySet();
  }

  /** Each served operation ({@code GET /api/v1/containers/{id}}) and the method serving it. */
  private static Map<String, Method> handlers(Class<?> controller) {
    String base =
        first(
            controller.getAnnotation(RequestMapping.class).path(),
            controller.getAnnotation(RequestMapping.class).value());
    Map<String, Method> operations = new TreeMap<>();
    for (Method method : controller.getDeclaredMethods()) {
      String path = null;
      String verb = null;
      if (method.isAnnotationPresent(GetMapping.class)) {
        verb = "GET";
        path =
            first(
                method.getAnnotation(GetMapping.class).path(),
                method.getAnnotation(GetMapping.class).value());
      } else if (method.isAnnotationPresent(PostMapping.class)) {
        verb = "POST";
        path =
            first(
                method.getAnnotation(PostMapping.class).path(),
                method.getAnnotation(PostMapping.class).value());
      } else if (method.isAnnotationPresent(PutMapping.class)) {
        verb = "PUT";
        path =
            first(
                method.getAnnotation(PutMapping.class).path(),
                method.getAnnotation(PutMapping.class).value());
      } else if (method.isAnnotationPresent(PatchMapping.class)) {
        verb = "PATCH";
        path =
            first(
                method.getAnnotation(PatchMapping.class).path(),
                method.getAnnotation(PatchMapping.class).value());
      } else if (method.isAnnotationPresent(DeleteMapping.class)) {
        verb = "DELETE";
        path =
            first(
                method.getAnnotation(DeleteMapping.class).path(),
                method.getAnnotation(DeleteMapping.class).value());
      }
      if (verb != null) {
        operations.put(verb + " " + base + path, method);
      }
    }
    return operations;
  }

  /** The body type a handler answers with: {@code T} of {@code ResponseEntity<T>}, or its own. */
  private static Class<?> bodyType(Method handler) {
    if (handler.getReturnType() == ResponseEntity.class
        && handler.getGenericReturnType() instanceof ParameterizedType entity
        && entity.getActualTypeArguments()[0] instanceof Class<?> body) {
      return body;
    }
    if (handler.getGenericReturnType() instanceof ParameterizedType generic
        && generic.getRawType() instanceof Class<?> raw) {
      return raw;
    }
    return handler.getReturnType();
  }

  private static String first(String[] paths, String[] values) {
    String[] chosen = paths.length > 0 ? paths : values;
    return chosen.length == 0 ? "" : chosen[0];
  }
}
