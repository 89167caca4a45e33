package dev.threadline.local.kubeapi.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class FieldManagerTest {
  private static final JsonNode SCHEMA =
      json(
          """
          {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
              "x": {"type": "string"}, "y": {"type": "string"},
              "labels": {"type": "object", "additionalProperties": {"type": "string"}},
              "selector": {"type": "object", "x-kubernetes-map-type": "atomic",
                           "additionalProperties": {"type": "string"}},
              "args": {"type": "array", "items": {"type": "string"}},
              "tags": {"type": "array", "x-kubernetes-list-type": "set",
                       "items": {"type": "string"}},
              "servers": {"type": "array", "x-kubernetes-list-type": "map",
                          "x-kubernetes-list-map-keys": ["name"],
                          "items": {"type": "object", "properties": {
                            "name": {"type": "string"}, "url": {"type": "string"},
                            "timeout": {"type": "integer", "default": 30}}}}}},
            "status": {"type": "object", "properties": {"phase": {"type": "string"}}}}}
          """);

  @Test
  void anApplyRecordsItsFieldsInKubesFieldsV1() {
    FieldManager.Applied applied =
        apply(
            null,
            """
            {"apiVersion": "x/v1", "kind": "K", "metadata": {"name": "n", "labels": {"a": "1"}},
             "spec": {"x": "1", "labels": {"k": "v"}, "selector": {"app": "a"}, "args": ["a"],
                      "tags": ["t"], "servers": [{"name": "s", "url": "u"}]}}
            """,
            "git");

    JsonNode entry = applied.managedFields().get(0);
    assertThat(entry.path("manager").asText()).isEqualTo("git");
    assertThat(entry.path("operation").asText()).isEqualTo("Apply");
    assertThat(entry.path("apiVersion").asText()).isEqualTo("x/v1");
    assertThat(entry.path("fieldsType").asText()).isEqualTo("FieldsV1");
    assertThat(entry.path("fieldsV1"))
        .isEqualTo(
            json(
                """
                {"f:metadata": {"f:labels": {"f:a": {}}},
                 "f:spec": {"f:args": {}, "f:labels": {"f:k": {}}, "f:selector": {},
                            "f:servers": {"k:{\\"name\\":\\"s\\"}": {".": {}, "f:name": {},
                                                                      "f:url": {}}},
                            "f:tags": {"v:\\"t\\"": {}}, "f:x": {}}}
                """));
    assertThat(applied.object().path("spec").path("servers").get(0).path("timeout").asInt())
        .as("defaults are the server's, owned by nobody")
        .isEqualTo(30);
  }

  @Test
  void anotherManagerChangingAnOwnedFieldConflictsUnlessForced() {
    ObjectNode live = stored(apply(null, spec("{\"x\": \"1\", \"y\": \"2\"}"), "git"));

    FieldManager.Applied refused = apply(live, spec("{\"x\": \"other\"}"), "hand");
    assertThat(refused.conflicts())
        .containsExactly(new FieldManager.Conflict("git", "x/v1", ".spec.x"));
    assertThat(FieldManager.conflictMessage(refused.conflicts()))
        .isEqualTo("Apply failed with 1 conflict: conflict with \"git\" using x/v1: .spec.x");

    FieldManager.Applied same = apply(live, spec("{\"x\": \"1\"}"), "hand");
    assertThat(same.conflicted()).as("the same value is shared, not a conflict").isFalse();

    FieldManager.Applied forced = applyForced(live, spec("{\"x\": \"other\"}"), "hand");
    ObjectNode after = stored(forced);
    assertThat(after.path("spec").path("x").asText()).isEqualTo("other");
    assertThat(fields(after, "git")).isEqualTo(json("{\"f:spec\": {\"f:y\": {}}}"));
    assertThat(fields(after, "hand")).isEqualTo(json("{\"f:spec\": {\"f:x\": {}}}"));
  }

  @Test
  void aFieldTheApplierNoLongerSendsIsRemovedUnlessSomeoneElseOwnsIt() {
    ObjectNode live =
        stored(
            apply(
                null,
                spec(
                    "{\"x\": \"1\", \"y\": \"2\", \"servers\": [{\"name\": \"a\"}, {\"name\":"
                        + " \"b\"}]}"),
                "git"));
    live = stored(apply(live, spec("{\"y\": \"2\"}"), "other"));

    ObjectNode after = stored(apply(live, spec("{\"servers\": [{\"name\": \"a\"}]}"), "git"));

    assertThat(after.path("spec").has("x")).isFalse();
    assertThat(after.path("spec").path("y").asText()).as("still owned by other").isEqualTo("2");
    assertThat(after.path("spec").path("servers").findValuesAsText("name")).containsExactly("a");
  }

  @Test
  void listMapItemsMergeByKeyAndSetsByValueAndAtomicFieldsAreReplacedWhenForced() {
    ObjectNode live =
        stored(
            apply(
                null,
                spec(
                    "{\"servers\": [{\"name\": \"a\", \"url\": \"1\"}], \"tags\": [\"t\"],"
                        + " \"args\": [\"p\", \"q\"], \"selector\": {\"a\": \"1\"}}"),
                "git"));
    ObjectNode after =
        stored(
            applyForced(
                live,
                spec(
                    "{\"servers\": [{\"name\": \"b\", \"url\": \"2\"}], \"tags\": [\"u\"],"
                        + " \"args\": [\"r\"], \"selector\": {\"b\": \"2\"}}"),
                "other"));

    assertThat(apply(live, spec("{\"args\": [\"r\"]}"), "other").conflicts())
        .extracting(FieldManager.Conflict::field)
        .containsExactly(".spec.args");
    JsonNode spec = after.path("spec");
    assertThat(spec.path("servers").findValuesAsText("name")).containsExactly("a", "b");
    assertThat(spec.path("tags").toString()).isEqualTo("[\"t\",\"u\"]");
    assertThat(spec.path("args").toString()).isEqualTo("[\"r\"]");
    assertThat(spec.path("selector").toString()).isEqualTo("{\"b\":\"2\"}");
  }

  @Test
  void anUpdateTakesOverWhatItChangesAndNeverConflicts() {
    ObjectNode live = stored(apply(null, spec("{\"x\": \"1\", \"y\": \"2\"}"), "git"));
    ObjectNode next = live.deepCopy();
    ((ObjectNode) next.path("spec")).put("x", "by the operator");
    ((ObjectNode) next.path("spec")).putArray("tags").add("new");

    FieldManager.recordUpdate(SCHEMA, live, next, "fabric8-kubernetes-client", null);

    assertThat(fields(next, "git")).isEqualTo(json("{\"f:spec\": {\"f:y\": {}}}"));
    assertThat(fields(next, "fabric8-kubernetes-client"))
        .isEqualTo(json("{\"f:spec\": {\"f:tags\": {\"v:\\\"new\\\"\": {}}, \"f:x\": {}}}"));
    JsonNode update = next.path("metadata").path("managedFields").get(1);
    assertThat(update.path("operation").asText()).isEqualTo("Update");
  }

  @Test
  void aStatusWriteIsItsOwnSubresourceAndNeverFightsTheSpecsApplier() {
    ObjectNode live = stored(apply(null, spec("{\"x\": \"1\"}"), "git"));
    ObjectNode next = live.deepCopy();
    next.putObject("status").put("phase", "Ready");
    FieldManager.recordUpdate(SCHEMA, live, next, "operator", "status");

    FieldManager.Applied again = apply(next, spec("{\"x\": \"1\"}"), "git");

    assertThat(again.conflicted()).isFalse();
    assertThat(again.object().path("status").path("phase").asText()).isEqualTo("Ready");
    JsonNode status = next.path("metadata").path("managedFields").get(1);
    assertThat(status.path("subresource").asText()).isEqualTo("status");
    assertThat(status.path("fieldsV1")).isEqualTo(json("{\"f:status\": {\"f:phase\": {}}}"));
  }

  @Test
  void fieldsV1ReadsBackAsTheSameSet() {
    JsonNode fieldsV1 =
        json(
            "{\"f:spec\": {\"f:servers\": {\"k:{\\\"name\\\":\\\"s\\\"}\": {\".\": {},"
                + " \"f:url\": {}}}, \"f:x\": {}}}");
    FieldSet set = FieldSet.fromFieldsV1(fieldsV1);
    assertThat(set.toFieldsV1()).isEqualTo(fieldsV1);
    assertThat(set.paths().stream().map(FieldSet::describe))
        .containsExactly(".spec.servers[name=\"s\"]", ".spec.servers[name=\"s\"].url", ".spec.x");
  }

  private static FieldManager.Applied apply(JsonNode live, String config, String manager) {
    return FieldManager.apply(
        SCHEMA, live, (ObjectNode) json(config), manager, false, null, o -> defaults(o));
  }

  private static FieldManager.Applied applyForced(JsonNode live, String config, String manager) {
    return FieldManager.apply(
        SCHEMA, live, (ObjectNode) json(config), manager, true, null, o -> defaults(o));
  }

  /** The one default of the test schema (the embedded API uses SchemaDefaults). */
  private static void defaults(ObjectNode object) {
    object
        .path("spec")
        .path("servers")
        .forEach(server -> {
          if (!server.has("timeout")) {
            ((ObjectNode) server).put("timeout", 30);
          }
        });
  }

  private static ObjectNode stored(FieldManager.Applied applied) {
    assertThat(applied.conflicts()).isEmpty();
    ObjectNode object = applied.object().deepCopy();
    applied.stamp(object);
    return object;
  }

  private static String spec(String spec) {
    return "{\"apiVersion\": \"x/v1\", \"kind\": \"K\", \"metadata\": {\"name\": \"n\"}, \"spec\": "
        + spec
        + "}";
  }

  private static JsonNode fields(JsonNode object, String manager) {
    for (JsonNode entry : object.path("metadata").path("managedFields")) {
      if (entry.path("manager").asText().equals(manager)) {
        return entry.path("fieldsV1");
      }
    }
    return null;
  }

  static JsonNode json(String text) {
    try {
      return FieldSet.MAPPER.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
