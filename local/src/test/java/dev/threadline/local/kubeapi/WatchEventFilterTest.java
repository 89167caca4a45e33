package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class WatchEventFilterTest {

  @Test
  void dropsTheReplayOfObjectsTheClientListedAlready() {
    WatchEventFilter filter = new WatchEventFilter("10", null, null);

    assertThat(filter.apply(event("ADDED", "old", "9"))).isNull();
    assertThat(filter.apply(event("ADDED", "same", "10"))).isNull();
    assertThat(filter.apply(event("ADDED", "new", "11"))).isNotNull();
    assertThat(filter.apply(event("DELETED", "gone", "9"))).as("a deletion is news").isNotNull();
  }

  @Test
  void replaysEverythingWithoutAResourceVersion() {
    String added = event("ADDED", "old", "3");

    assertThat(new WatchEventFilter(null, null, null).apply(added)).isEqualTo(added);
    assertThat(new WatchEventFilter("0", null, null).apply(added)).isEqualTo(added);
  }

  @Test
  void turnsObjectsIntoOneRowTablesForKubectl() {
    ResourceType configMaps =
        BuiltinResources.ALL.stream()
            .filter(t -> t.plural().equals("configmaps"))
            .findFirst()
            .orElseThrow();
    WatchEventFilter filter = new WatchEventFilter(null, configMaps, null);

    JsonNode first = Json.parse(filter.apply(event("ADDED", "a", "1")));
    JsonNode second = Json.parse(filter.apply(event("MODIFIED", "a", "2")));

    assertThat(first.path("type").asText()).isEqualTo("ADDED");
    assertThat(first.at("/object/kind").asText()).isEqualTo("Table");
    assertThat(first.at("/object/columnDefinitions").findValuesAsText("name"))
        .isEqualTo(List.of("Name", "Age"));
    assertThat(first.at("/object/rows/0/cells/0").asText()).isEqualTo("a");
    assertThat(second.at("/object/columnDefinitions")).isEmpty();
    assertThat(second.at("/object/rows")).hasSize(1);
  }

  private static String event(String type, String name, String resourceVersion) {
    return "{\"type\":\""
        + type
        + "\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\""
        + name
        + "\",\"resourceVersion\":\""
        + resourceVersion
        + "\","
        + "\"creationTimestamp\":\"2026-01-01T00:00:00Z\"}}}";
  }
}
