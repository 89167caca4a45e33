package dev.threadline.local.kubeapi.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.local.kubeapi.apply.MergeSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StrategicMergePatchTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final MergeSchema BUILTIN = MergeSchema.root(null);

  private static final JsonNode POD =
      json(
          """
          {"metadata": {"finalizers": ["a"], "labels": {"x": "1", "y": "2"}},
           "spec": {"containers": [
             {"name": "app", "image": "app:1", "env": [{"name": "A", "value": "1"}],
              "ports": [{"containerPort": 80}], "args": ["one"]},
             {"name": "side", "image": "side:1"}],
            "volumes": [{"name": "v", "emptyDir": {}}]}}
          """);

  @Test
  void listsWithAMergeKeyMergeItemByItem() {
    JsonNode patched =
        patch(
            """
            {"spec": {"containers": [
              {"name": "app", "image": "app:2", "env": [{"name": "B", "value": "2"}],
               "ports": [{"containerPort": 81}], "args": ["two"]},
              {"name": "new", "image": "new:1"}]}}
            """);

    JsonNode containers = patched.path("spec").path("containers");
    assertThat(names(containers)).containsExactly("app", "side", "new");
    JsonNode app = containers.get(0);
    assertThat(app.path("image").asText()).isEqualTo("app:2");
    assertThat(names(app.path("env"))).containsExactly("A", "B");
    assertThat(app.path("ports").findValuesAsText("containerPort")).containsExactly("80", "81");
    assertThat(app.path("args").toString()).as("no merge key: replaced").isEqualTo("[\"two\"]");
    assertThat(patched.path("spec").path("volumes")).isEqualTo(POD.path("spec").path("volumes"));
  }

  @Test
  void directivesDeleteReplaceAndRetain() {
    JsonNode patched =
        patch(
            """
            {"metadata": {"labels": {"$retainKeys": ["x"], "x": "9"},
                          "$deleteFromPrimitiveList/finalizers": ["a"]},
             "spec": {"containers": [{"name": "side", "$patch": "delete"}],
                      "volumes": [{"$patch": "replace"}, {"name": "w", "emptyDir": {}}]}}
            """);

    assertThat(patched.path("metadata").path("labels").toString()).isEqualTo("{\"x\":\"9\"}");
    assertThat(patched.path("metadata").path("finalizers").toString()).isEqualTo("[]");
    assertThat(names(patched.path("spec").path("containers"))).containsExactly("app");
    assertThat(names(patched.path("spec").path("volumes"))).containsExactly("w");
    assertThat(patch("{\"spec\": {\"$patch\": \"replace\", \"volumes\": []}}").path("spec"))
        .isEqualTo(json("{\"volumes\": []}"));
  }

  @Test
  void finalizersMergeAsASetAndNullRemovesAKey() {
    JsonNode patched = patch("{\"metadata\": {\"finalizers\": [\"b\", \"a\"], \"labels\": null}}");
    assertThat(patched.path("metadata").path("finalizers").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(patched.path("metadata").has("labels")).isFalse();
  }

  @Test
  void anUnknownDirectiveIsRefused() {
    assertThatThrownBy(() -> patch("{\"spec\": {\"$patch\": \"explode\"}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("explode");
  }

  private static List<String> names(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.forEach(item -> names.add(item.path("name").asText()));
    return names;
  }

  private static JsonNode patch(String patch) {
    return StrategicMergePatch.apply(BUILTIN, POD, json(patch));
  }

  private static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
