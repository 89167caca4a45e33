package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class SchemaPruningTest {
  private static final JsonNode SCHEMA =
      Json.parse(
          """
          {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
              "name": {"type": "string"},
              "maybe": {"type": "string", "nullable": true},
              "labels": {"type": "object", "additionalProperties": {"type": "string"}},
              "items": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "string"}}}},
              "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}
          """);

  @Test
  void dropsUndeclaredFieldsAtAnyDepthAndSaysWhich() {
    JsonNode object =
        Json.parse(
            """
            {"apiVersion": "x/v1", "kind": "X", "metadata": {"name": "a", "whatever": 1},
             "spec": {"name": "n", "bogus": 1, "labels": {"any": "kept"},
                      "items": [{"id": "1", "extra": true}], "free": {"anything": [1]}},
             "top": "gone"}
            """);

    assertThat(SchemaPruning.prune(SCHEMA, object))
        .containsExactly("spec.bogus", "spec.items[0].extra", "top");
    assertThat(object.path("spec").has("bogus")).isFalse();
    assertThat(object.at("/spec/labels/any").asText()).isEqualTo("kept");
    assertThat(object.at("/spec/free/anything").isArray()).isTrue();
    assertThat(object.at("/metadata/whatever").asInt()).isEqualTo(1);
    assertThat(object.has("top")).isFalse();
  }

  @Test
  void dropsNullsTheSchemaDoesNotAllowWithoutCallingThemUnknown() {
    JsonNode object =
        Json.parse(
            """
            {"spec": {"name": null, "maybe": null, "labels": {"a": null, "b": "kept"}}}
            """);

    assertThat(SchemaPruning.prune(SCHEMA, object)).isEmpty();
    assertThat(object.path("spec").has("name")).isFalse();
    assertThat(object.path("spec").has("maybe")).as("nullable").isTrue();
    assertThat(object.at("/spec/labels").has("a")).isFalse();
    assertThat(object.at("/spec/labels/b").asText()).isEqualTo("kept");
  }

  @Test
  void withoutASchemaNothingIsPruned() {
    JsonNode object = Json.parse("{\"data\": {\"a\": \"1\"}}");
    assertThat(SchemaPruning.prune(null, object)).isEmpty();
    assertThat(object.path("data").has("a")).isTrue();
  }
}
