package dev.threadline.api.containers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;

/** The container API's OpenAPI document describes exactly what the controllers serve and return. */
class ContainersOpenApiTest {
  private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete");
  private static JsonNode document;

  @BeforeAll
  static void readDocument() throws IOException {
    try (InputStream yaml =
        ContainersOpenApiTest.class.getResourceAsStream("/openapi/containers.yaml")) {
      document = new YAMLMapper().readTree(yaml);
    }
  }

  @Test
  void everyServedOperationIsDocumentedAndNothingElse() {
    Set<String> documented = new TreeSet<>();
    document
        .path("paths")
        .properties()
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
    document
        .path("paths")
        .properties()
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
    String base =
        first(
            controller.getAnnotation(RequestMapping.class).path(),
            controller.getAnnotation(RequestMapping.class).value());
    Set<String> operations = new TreeSet<>();
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
        operations.add(verb + " " + base + path);
      }
    }
    return operations;
  }

  private static String first(String[] paths, String[] values) {
    String[] chosen = paths.length > 0 ? paths : values;
    return chosen.length == 0 ? "" : chosen[0];
  }
}
