package dev.threadline.local.kubeapi.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.local.kubeapi.validation.SchemaValidation.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaValidationTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final JsonNode SCHEMA =
      json(
          """
          {"type": "object", "properties": {
            "apiVersion": {"type": "string"}, "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": {"type": "object", "required": ["task"], "properties": {
              "task": {"type": "string", "minLength": 1, "maxLength": 8},
              "size": {"type": "integer", "minimum": 1, "maximum": 10},
              "provider": {"type": "string", "enum": ["openai", "anthropic"]},
              "name": {"type": "string", "pattern": "^[a-z]+$"},
              "when": {"type": "string", "format": "date-time"},
              "port": {"x-kubernetes-int-or-string": true},
              "note": {"type": "string", "nullable": true},
              "tags": {"type": "array", "maxItems": 2, "minItems": 1,
                       "items": {"type": "object", "required": ["key"],
                                 "properties": {"key": {"type": "string"}}}}}}}}
          """);

  @Test
  void aValidObjectHasNoProblems() {
    assertThat(
            check(
                """
                {"apiVersion": "x/v1", "kind": "K", "metadata": {"name": "n"},
                 "spec": {"task": "t", "size": 3, "provider": "openai", "name": "abc",
                          "when": "2026-12-01T10:00:00Z", "port": "http", "note": null,
                          "tags": [{"key": "a"}]}}
                """))
        .isEmpty();
  }

  @Test
  void aWronglyTypedFieldIsReportedAsKubeApiserverWordsIt() {
    assertThat(check("{\"spec\": {\"task\": \"t\", \"size\": \"string\"}}"))
        .containsExactly(
            new Problem(
                "FieldValueTypeInvalid",
                "spec.size",
                "Invalid value: \"string\": spec.size in body must be of type integer:"
                    + " \"string\""));
  }

  @Test
  void aBadEnumValueNamesTheSupportedValues() {
    assertThat(check("{\"spec\": {\"task\": \"t\", \"provider\": \"x\"}}"))
        .containsExactly(
            new Problem(
                "FieldValueNotSupported",
                "spec.provider",
                "Unsupported value: \"x\": supported values: \"openai\", \"anthropic\""));
  }

  @Test
  void aMissingRequiredFieldIsNamedWithItsParent() {
    assertThat(check("{\"spec\": {\"tags\": [{}]}}"))
        .containsExactlyInAnyOrder(
            new Problem("FieldValueRequired", "spec.task", "Required value"),
            new Problem("FieldValueRequired", "spec.tags[0].key", "Required value"));
  }

  @Test
  void boundsLengthsPatternsAndFormats() {
    assertThat(
            check(
                """
                {"spec": {"task": "much too long", "size": 0, "name": "A1",
                          "when": "yesterday", "tags": [{"key": "a"}, {"key": "b"}, {"key": "c"}]}}
                """))
        .containsExactlyInAnyOrder(
            new Problem("FieldValueTooLong", "spec.task", "Too long: must have at most 8 bytes"),
            new Problem(
                "FieldValueInvalid",
                "spec.size",
                "Invalid value: 0: spec.size in body should be greater than or equal to 1"),
            new Problem(
                "FieldValueInvalid",
                "spec.name",
                "Invalid value: \"A1\": spec.name in body should match '^[a-z]+$'"),
            new Problem(
                "FieldValueInvalid",
                "spec.when",
                "Invalid value: \"yesterday\": spec.when in body must be of type date-time:"
                    + " \"yesterday\""),
            new Problem(
                "FieldValueTooMany", "spec.tags", "Too many: 3: must have at most 2 items"));
    assertThat(check("{\"spec\": {\"task\": \"\", \"size\": 11, \"tags\": []}}"))
        .containsExactlyInAnyOrder(
            new Problem(
                "FieldValueInvalid",
                "spec.task",
                "Invalid value: \"\": spec.task in body should be at least 1 chars long"),
            new Problem(
                "FieldValueInvalid",
                "spec.size",
                "Invalid value: 11: spec.size in body should be less than or equal to 10"),
            new Problem(
                "FieldValueInvalid",
                "spec.tags",
                "Invalid value: \"array\": spec.tags in body should have at least 1 items"));
  }

  @Test
  void aNullWhereTheSchemaDoesNotAllowOneIsATypeError() {
    assertThat(check("{\"spec\": {\"task\": null}}"))
        .containsExactly(
            new Problem(
                "FieldValueTypeInvalid",
                "spec.task",
                "Invalid value: \"null\": spec.task in body must be of type string: \"null\""));
  }

  @Test
  void aPatternIsMatchedInLinearTime() {
    JsonNode schema =
        json(
            "{\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"string\","
                + " \"pattern\": \"^(a+)+$\"}}}");
    String hostile = "a".repeat(5_000) + "!";
    assertThat(SchemaValidation.check(schema, json("{\"x\": \"" + hostile + "\"}"))).hasSize(1);
  }

  @Test
  void aReferenceIsNeverFetched() {
    JsonNode schema =
        json(
            "{\"type\": \"object\", \"properties\": {\"x\": {\"$ref\":"
                + " \"http://127.0.0.1:9/schema.json\"}}}");
    List<Problem> problems = SchemaValidation.check(schema, json("{\"y\": 1}"));
    assertThat(problems).isEmpty();
  }

  private static List<Problem> check(String object) {
    return SchemaValidation.check(SCHEMA, json(object));
  }

  private static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
