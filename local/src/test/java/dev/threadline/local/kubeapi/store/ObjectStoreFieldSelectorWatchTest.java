package dev.threadline.local.kubeapi.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.store.ObjectStoreTest.Recorder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watch with a field (or label) selector sees an object enter its selection as {@code ADDED} and
 * leave it as {@code DELETED}, as kube-apiserver's watch cache answers, live and in a replay.
 */
class ObjectStoreFieldSelectorWatchTest {
  private static final String RUNS = "runs.threadline.dev";
  private static final Selection COMPUTER_RUNS =
      new Selection(RUNS, null, null, FieldSelector.parse("status.route=computer"));

  @TempDir Path folder;
  private ObjectStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private void open(StoreOptions options) {
    store = ObjectStore.open(folder.resolve("kubernetes.db"), options);
  }

  private static ObjectKey key(String name) {
    return new ObjectKey(RUNS, "a", name);
  }

  private static ObjectNode run(String name, String route, String phase) {
    ObjectNode object = ObjectStoreTest.MAPPER.createObjectNode();
    object.put("apiVersion", "threadline.dev/v1alpha1");
    object.put("kind", "Run");
    object.putObject("metadata").put("namespace", "a").put("name", name);
    ObjectNode status = object.putObject("status");
    if (route != null) {
      status.put("route", route);
    }
    status.put("phase", phase);
    return object;
  }

  /** The events a watch saw, as "TYPE name phase". */
  private static List<String> seen(Recorder recorder) {
    return recorder.events.stream()
        .map(e ->
            e.path("type").asText()
                + " "
                + e.path("object").path("metadata").path("name").asText()
                + " "
                + e.path("object").path("status").path("phase").asText())
        .toList();
  }

  /** A computer run and a direct run, each created, routed and finished. */
  private void routeAndFinishTwoRuns() {
    store.create(key("c"), run("c", null, "pending"));
    store.create(key("d"), run("d", null, "pending"));
    store.update(key("d"), 0, run("d", "direct", "completed"));
    store.update(key("c"), 0, run("c", "computer", "running"));
    store.update(key("c"), 0, run("c", "computer", "completed"));
  }

  @Test
  void anUpdateThatEntersTheSelectionIsAddedAndOneThatLeavesItIsDeleted() {
    open(StoreOptions.defaults());
    Recorder computer = new Recorder();
    store.watch(COMPUTER_RUNS, store.revision(), null, computer);
    Recorder running = new Recorder();
    store.watch(
        new Selection(RUNS, "a", null, FieldSelector.parse("status.phase!=completed")),
        store.revision(),
        null,
        running);

    routeAndFinishTwoRuns();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> computer.events.size() == 2 && running.events.size() == 5);
    assertThat(seen(computer)).containsExactly("ADDED c running", "MODIFIED c completed");
    assertThat(seen(running))
        .as("a run that finishes leaves with its finished state; one never selected is not seen")
        .containsExactly(
            "ADDED c pending",
            "ADDED d pending",
            "DELETED d completed",
            "MODIFIED c running",
            "DELETED c completed");
    assertThat(store.traffic(RUNS))
        .as("five writes, seven events: the selections spared three")
        .isEqualTo(new ObjectStore.WatchTraffic(5, 7));
  }

  @Test
  void aLabelChangeThatLeavesTheSelectionIsDeleted() {
    open(StoreOptions.defaults());
    Recorder recorder = new Recorder();
    store.watch(
        new Selection(ObjectStoreTest.THREADS, null, LabelSelector.parse("app=x"), null),
        store.revision(),
        null,
        recorder);
    store.create(ObjectStoreTest.key("a", "t"), ObjectStoreTest.thread("a", "t", Map.of()));
    store.update(
        ObjectStoreTest.key("a", "t"), 0, ObjectStoreTest.thread("a", "t", Map.of("app", "x")));
    store.update(
        ObjectStoreTest.key("a", "t"), 0, ObjectStoreTest.thread("a", "t", Map.of("app", "y")));

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.events.size() == 2);
    assertThat(recorder.types()).containsExactly("ADDED", "DELETED");
  }

  @Test
  void aWatchResumedFromAResourceVersionSeesTheSameEnterAndLeave() {
    open(StoreOptions.defaults());
    store.create(key("c"), run("c", null, "pending"));
    store.update(key("c"), 0, run("c", "computer", "running"));
    store.create(key("d"), run("d", "computer", "running"));
    long resumeFrom = store.revision();
    store.update(key("d"), 0, run("d", "computer", "completed"));
    store.update(key("c"), 0, run("c", "direct", "completed"));
    store.create(key("e"), run("e", null, "pending"));
    store.update(key("e"), 0, run("e", "direct", "completed"));
    store.close();

    open(StoreOptions.defaults());
    Recorder recorder = new Recorder();
    store.watch(COMPUTER_RUNS, resumeFrom, null, recorder);
    store.update(key("d"), 0, run("d", "direct", "failed"));

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.events.size() == 3);
    assertThat(seen(recorder))
        .as("c and d were selected before the resourceVersion (read from the log), e never was")
        .containsExactly("MODIFIED d completed", "DELETED c completed", "DELETED d failed");
  }

  @Test
  void aReplayFromZeroHoldsOnlyWhatIsSelectedNow() {
    open(StoreOptions.defaults());
    routeAndFinishTwoRuns();
    Recorder recorder = new Recorder();
    store.watch(
        new Selection(RUNS, null, null, FieldSelector.parse("status.route=direct")),
        0,
        null,
        recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.events.size() == 1);
    assertThat(seen(recorder)).containsExactly("ADDED d completed");
  }

  @Test
  void aReplayWhoseEarlierStateIsCompactedAwayTellsALeavingObjectToGo() {
    open(new StoreOptions(4, 100, Duration.ofMinutes(1)));
    store.create(key("c"), run("c", "computer", "running"));
    store.create(key("d"), run("d", "direct", "completed"));
    for (int i = 0; i < 8; i++) {
      store.create(key("x" + i), run("x" + i, "direct", "completed"));
    }
    long resumeFrom = store.revision();
    assertThat(store.compactedRevision()).isGreaterThan(2);
    store.update(key("c"), 0, run("c", "direct", "completed"));
    store.update(key("d"), 0, run("d", "direct", "failed"));

    Recorder recorder = new Recorder();
    store.watch(COMPUTER_RUNS, resumeFrom, null, recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.events.size() == 2);
    assertThat(seen(recorder))
        .as("not knowing whether the watcher holds them, it is told that neither is selected")
        .containsExactly("DELETED c completed", "DELETED d failed");
  }
}
