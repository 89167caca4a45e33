package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableRendererTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");
  private static final ResourceType ENVIRONMENTS =
      new ResourceType(
          "threadline.dev",
          "v1alpha1",
          "environments",
          "environment",
          "Environment",
          true,
          List.of("tle"),
          List.of(),
          true,
          List.of(
              PrinterColumn.NAME,
              PrinterColumn.of("Display Name", "string", ".spec.displayName"),
              new PrinterColumn("Image", "string", "", "", 1, ".status.imageTag"),
              PrinterColumn.of("Default", "boolean", ".spec.isDefault"),
              PrinterColumn.of("Runs", "integer", ".status.runs"),
              PrinterColumn.of(
                  "Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status"),
              PrinterColumn.AGE),
          null,
          ValidationRules.NONE,
          null);
  private static final JsonNode ENVIRONMENT =
      JsonMergePatchTest.json(
          "{'apiVersion':'threadline.dev/v1alpha1','kind':'Environment',"
              + "'metadata':{'name':'e1','namespace':'u1','resourceVersion':'7','creationTimestamp':'2026-01-01T00:05:00Z'},"
              + "'spec':{'displayName':'Demo','isDefault':true},"
              + "'status':{'runs':3,'conditions':[{'type':'Ready','status':'True'}]}}");

  @Test
  void rendersPrinterColumnsAsTypedCells() {
    ObjectNode table = TableRenderer.render(ENVIRONMENTS, list(ENVIRONMENT), null, true, NOW);

    assertThat(table.path("kind").asText()).isEqualTo("Table");
    assertThat(table.path("apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
    assertThat(table.at("/metadata/resourceVersion").asText()).isEqualTo("9");
    assertThat(table.path("columnDefinitions")).hasSize(7);
    assertThat(table.at("/columnDefinitions/0/format").asText()).isEqualTo("name");
    assertThat(table.at("/columnDefinitions/2/priority").asInt()).isEqualTo(1);
    assertThat(table.at("/rows/0/cells").toString())
        .isEqualTo("[\"e1\",\"Demo\",null,true,3,\"True\",\"5m\"]");
  }

  @Test
  void rowObjectsArePartialObjectMetadataUnlessAskedOtherwise() {
    JsonNode metadataRow =
        TableRenderer.render(ENVIRONMENTS, ENVIRONMENT, null, true, NOW).at("/rows/0/object");
    assertThat(metadataRow.path("kind").asText()).isEqualTo("PartialObjectMetadata");
    assertThat(metadataRow.at("/metadata/namespace").asText()).isEqualTo("u1");
    assertThat(metadataRow.has("spec")).isFalse();

    assertThat(
            TableRenderer.render(ENVIRONMENTS, ENVIRONMENT, "Object", true, NOW)
                .at("/rows/0/object/spec/displayName")
                .asText())
        .isEqualTo("Demo");
    assertThat(
            TableRenderer.render(ENVIRONMENTS, ENVIRONMENT, "None", true, NOW)
                .at("/rows/0")
                .has("object"))
        .isFalse();
  }

  @Test
  void watchEventsAfterTheFirstCarryNoColumnDefinitions() {
    assertThat(
            TableRenderer.render(ENVIRONMENTS, ENVIRONMENT, null, false, NOW)
                .path("columnDefinitions"))
        .isEmpty();
  }

  @Test
  void podsShowReadyStatusRestartsAndAge() {
    ResourceType pods =
        BuiltinResources.ALL.stream()
            .filter(t -> t.plural().equals("pods"))
            .findFirst()
            .orElseThrow();
    JsonNode pod =
        JsonMergePatchTest.json(
            "{'metadata':{'name':'p1','creationTimestamp':'2026-01-01T00:09:30Z'},"
                + "'spec':{'containers':[{'name':'a'},{'name':'b'}]},"
                + "'status':{'phase':'Pending','containerStatuses':["
                + "{'name':'a','ready':true,'restartCount':1,'state':{'running':{}}},"
                + "{'name':'b','ready':false,'restartCount':2,'state':{'waiting':{'reason':'ContainerCreating'}}}]}}");

    ObjectNode table = TableRenderer.render(pods, pod, null, true, NOW);

    assertThat(table.path("columnDefinitions").findValuesAsText("name"))
        .containsExactly("Name", "Ready", "Status", "Restarts", "Age");
    assertThat(table.at("/rows/0/cells").toString())
        .isEqualTo("[\"p1\",\"1/2\",\"ContainerCreating\",\"3\",\"30s\"]");
  }

  private static JsonNode list(JsonNode item) {
    ObjectNode list = Json.object();
    list.putObject("metadata").put("resourceVersion", "9");
    list.putArray("items").add(item);
    return list;
  }
}
