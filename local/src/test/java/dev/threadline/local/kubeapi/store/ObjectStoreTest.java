package dev.threadline.local.kubeapi.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectStoreTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String THREADS = "threads.threadline.dev";

  @TempDir Path folder;
  private ObjectStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private ObjectStore open(StoreOptions options) {
    store = ObjectStore.open(folder.resolve("kubernetes.db"), options);
    return store;
  }

  static ObjectNode thread(String namespace, String name, Map<String, String> labels) {
    ObjectNode object = MAPPER.createObjectNode();
    object.put("apiVersion", "threadline.dev/v1alpha1");
    object.put("kind", "Thread");
    ObjectNode metadata = object.putObject("metadata");
    metadata.put("namespace", namespace);
    metadata.put("name", name);
    labels.forEach(metadata.putObject("labels")::put);
    object.putObject("spec").put("title", name);
    return object;
  }

  static ObjectKey key(String namespace, String name) {
    return new ObjectKey(THREADS, namespace, name);
  }

  @Test
  void everyWriteAdvancesTheRevisionWhichIsTheResourceVersion() {
    open(StoreOptions.defaults());
    StoredObject created = store.create(key("a", "t1"), thread("a", "t1", Map.of()));
    StoredObject updated =
        store.update(key("a", "t1"), created.revision(), thread("a", "t1", Map.of("x", "1")));

    assertThat(updated.revision()).isEqualTo(created.revision() + 1);
    assertThat(
            store
                .get(key("a", "t1"))
                .orElseThrow()
                .object()
                .path("metadata")
                .path("resourceVersion")
                .asText())
        .isEqualTo(Long.toString(updated.revision()));
    assertThat(store.revision()).isEqualTo(updated.revision());
  }

  @Test
  void refusesStaleUpdatesTakenNamesAndMissingObjects() {
    open(StoreOptions.defaults());
    StoredObject created = store.create(key("a", "t1"), thread("a", "t1", Map.of()));
    store.update(key("a", "t1"), created.revision(), thread("a", "t1", Map.of()));

    assertThatThrownBy(
            () -> store.update(key("a", "t1"), created.revision(), thread("a", "t1", Map.of())))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.CONFLICT));
    assertThatThrownBy(() -> store.create(key("a", "t1"), thread("a", "t1", Map.of())))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.ALREADY_EXISTS));
    assertThatThrownBy(() -> store.delete(key("a", "nope"), 0))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.NOT_FOUND));
  }

  @Test
  void labelSelectorsAndNamespacesPickTheRightObjects() {
    open(StoreOptions.defaults());
    store.create(key("a", "t1"), thread("a", "t1", Map.of("app", "x", "tier", "web")));
    store.create(key("a", "t2"), thread("a", "t2", Map.of("app", "y")));
    store.create(key("b", "t3"), thread("b", "t3", Map.of("app", "x")));
    store.create(key("b", "t4"), thread("b", "t4", Map.of()));

    assertThat(names(list(null, "app=x"))).containsExactly("t1", "t3");
    assertThat(names(list("a", "app=x"))).containsExactly("t1");
    assertThat(names(list(null, "app!=x"))).containsExactly("t2", "t4");
    assertThat(names(list(null, "app in (x, y),!tier"))).containsExactly("t2", "t3");
    assertThat(names(list(null, "app notin (x)"))).containsExactly("t2", "t4");
    assertThat(names(list(null, "tier"))).containsExactly("t1");
    assertThat(names(list("b", ""))).containsExactly("t3", "t4");
  }

  private ListPage list(String namespace, String labels) {
    return store.list(
        new Selection(THREADS, namespace, LabelSelector.parse(labels), null), 0, null);
  }

  private static List<String> names(ListPage page) {
    return page.items().stream().map(o -> o.path("metadata").path("name").asText()).toList();
  }

  @Test
  void pagesWithLimitAndContinue() {
    open(StoreOptions.defaults());
    for (int i = 0; i < 7; i++) {
      store.create(key("a", "t" + i), thread("a", "t" + i, Map.of()));
    }
    Selection all = Selection.all(THREADS);
    ListPage first = store.list(all, 3, null);
    ListPage second = store.list(all, 3, first.continueToken());
    ListPage last = store.list(all, 3, second.continueToken());

    assertThat(names(first)).containsExactly("t0", "t1", "t2");
    assertThat(names(second)).containsExactly("t3", "t4", "t5");
    assertThat(names(last)).containsExactly("t6");
    assertThat(last.continueToken()).isNull();
    assertThat(first.revision()).isEqualTo(store.revision());
    assertThatThrownBy(() -> store.list(all, 3, "not-a-token!"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRestartKeepsObjectsAndTheRevision() {
    open(StoreOptions.defaults());
    store.create(key("a", "t1"), thread("a", "t1", Map.of("app", "x")));
    long revision = store.revision();
    store.close();

    open(StoreOptions.defaults());
    assertThat(store.revision()).isEqualTo(revision);
    assertThat(store.get(key("a", "t1"))).isPresent();
    assertThat(names(list(null, "app=x"))).containsExactly("t1");
    assertThat(store.create(key("a", "t2"), thread("a", "t2", Map.of())).revision())
        .isEqualTo(revision + 1);
  }

  @Test
  void aWatchResumesFromARevisionAcrossARestart() throws Exception {
    open(StoreOptions.defaults());
    store.create(key("a", "t1"), thread("a", "t1", Map.of()));
    long seen = store.revision();
    store.update(key("a", "t1"), 0, thread("a", "t1", Map.of("changed", "yes")));
    store.delete(key("a", "t1"), 0);
    store.close();

    open(StoreOptions.defaults());
    Recorder recorder = new Recorder();
    store.watch(Selection.all(THREADS), seen, null, recorder);
    store.create(key("a", "t2"), thread("a", "t2", Map.of()));

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.events.size() == 3);
    assertThat(recorder.types()).containsExactly("MODIFIED", "DELETED", "ADDED");
    assertThat(recorder.revisions()).isSorted().allMatch(r -> r > seen);
  }

  @Test
  void aWatchFromZeroStartsWithEveryObject() {
    open(StoreOptions.defaults());
    store.create(key("a", "t1"), thread("a", "t1", Map.of("app", "x")));
    store.create(key("a", "t2"), thread("a", "t2", Map.of("app", "y")));
    Recorder recorder = new Recorder();
    store.watch(new Selection(THREADS, "a", LabelSelector.parse("app=x"), null), 0, null, recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.events.size() == 1);
    assertThat(recorder.types()).containsExactly("ADDED");
  }

  @Test
  void aWatchFromACompactedRevisionGetsGone() {
    open(new StoreOptions(5, 100, Duration.ofMinutes(1)));
    for (int i = 0; i < 20; i++) {
      store.create(key("a", "t" + i), thread("a", "t" + i, Map.of()));
    }
    assertThat(store.compactedRevision()).isGreaterThan(2);
    Recorder recorder = new Recorder();
    store.watch(Selection.all(THREADS), 2, null, recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.closed.get());
    JsonNode error = recorder.events.get(0);
    assertThat(error.path("type").asText()).isEqualTo("ERROR");
    assertThat(error.path("object").path("code").asInt()).isEqualTo(410);
    assertThat(error.path("object").path("reason").asText()).isEqualTo("Expired");
  }

  @Test
  void aWatcherThatFallsBehindIsClosedWithAnErrorItSees() throws Exception {
    open(new StoreOptions(10_000, 3, Duration.ofMinutes(1)));
    CountDownLatch release = new CountDownLatch(1);
    Recorder stuck = new Recorder(release);
    store.watch(Selection.all(THREADS), store.revision(), null, stuck);
    for (int i = 0; i < 10; i++) {
      store.create(key("a", "t" + i), thread("a", "t" + i, Map.of()));
    }
    release.countDown();

    await().atMost(Duration.ofSeconds(5)).until(() -> stuck.closed.get());
    JsonNode last = stuck.events.get(stuck.events.size() - 1);
    assertThat(last.path("type").asText()).isEqualTo("ERROR");
    assertThat(last.path("object").path("code").asInt()).isEqualTo(410);
    assertThat(store.openWatches()).isZero();
  }

  @Test
  void bookmarksCarryTheCurrentRevision() {
    open(new StoreOptions(10_000, 100, Duration.ofMillis(50)));
    store.create(key("a", "t1"), thread("a", "t1", Map.of()));
    Recorder recorder = new Recorder();
    store.watch(
        Selection.all(THREADS),
        store.revision(),
        new BookmarkShape("threadline.dev/v1alpha1", "Thread"),
        recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> !recorder.events.isEmpty());
    JsonNode bookmark = recorder.events.get(0);
    assertThat(bookmark.path("type").asText()).isEqualTo("BOOKMARK");
    assertThat(bookmark.path("object").path("kind").asText()).isEqualTo("Thread");
    assertThat(bookmark.path("object").path("metadata").path("resourceVersion").asLong())
        .isEqualTo(store.revision());
  }

  @Test
  void manyWritersAndWatchersLoseNoEvent() throws Exception {
    open(StoreOptions.defaults());
    int watchers = 16;
    int writers = 8;
    int perWriter = 50;
    List<Recorder> recorders = new CopyOnWriteArrayList<>();
    for (int i = 0; i < watchers; i++) {
      Recorder recorder = new Recorder();
      recorders.add(recorder);
      store.watch(Selection.all(THREADS), store.revision(), null, recorder);
    }
    List<Thread> threads = new java.util.ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      threads.add(
          Thread.ofPlatform()
              .start(() -> {
                for (int i = 0; i < perWriter; i++) {
                  String name = "w" + writer + "-" + i;
                  store.create(key("a", name), thread("a", name, Map.of()));
                }
              }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    int expected = writers * perWriter;
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> recorders.stream().allMatch(r -> r.events.size() == expected));
    for (Recorder recorder : recorders) {
      assertThat(recorder.revisions()).isSorted().doesNotHaveDuplicates();
    }
  }

  @Test
  void concurrentWritesShareCommitsAndAFailedWriteFailsAlone() throws Exception {
    open(StoreOptions.defaults());
    StoredObject contested =
        store.create(key("a", "contested"), thread("a", "contested", Map.of()));
    long commitsBefore = store.commits();
    int writers = 16;
    int perWriter = 40;
    java.util.concurrent.atomic.AtomicInteger conflicts =
        new java.util.concurrent.atomic.AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new java.util.ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      threads.add(
          Thread.ofPlatform()
              .start(() -> {
                awaitQuietly(start);
                for (int i = 0; i < perWriter; i++) {
                  String name = "w" + writer + "-" + i;
                  store.create(key("a", name), thread("a", name, Map.of()));
                  try {
                    // every writer but one is stale: they fail alone, their batch commits
                    store.update(
                        key("a", "contested"),
                        contested.revision(),
                        thread("a", "contested", Map.of("by", name)));
                  } catch (StoreException e) {
                    assertThat(e.reason()).isEqualTo(StoreException.Reason.CONFLICT);
                    conflicts.incrementAndGet();
                  }
                }
              }));
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }

    int creates = writers * perWriter;
    assertThat(conflicts.get()).isEqualTo(creates - 1);
    assertThat(store.list(Selection.all(THREADS), 0, null).items()).hasSize(creates + 1);
    assertThat(store.revision()).isEqualTo(contested.revision() + creates + 1);
    // 2 × creates writes (a create and an update each), fewer transactions
    assertThat(store.commits() - commitsBefore).isLessThan(2L * creates);
    store.close();
    store = ObjectStore.open(folder.resolve("kubernetes.db"), StoreOptions.defaults());
    assertThat(store.list(Selection.all(THREADS), 0, null).items()).hasSize(creates + 1);
    assertThat(
            store
                .get(key("a", "contested"))
                .orElseThrow()
                .object()
                .at("/metadata/labels/by")
                .asText())
        .startsWith("w");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Records events; optionally blocks on the first one until released, as a stuck client. */
  static final class Recorder implements WatchListener {
    final List<JsonNode> events = new CopyOnWriteArrayList<>();
    final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch release;

    Recorder() {
      this(new CountDownLatch(0));
    }

    Recorder(CountDownLatch release) {
      this.release = release;
    }

    @Override
    public void onEvent(String event) {
      try {
        release.await();
        events.add(MAPPER.readTree(event));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void onClose() {
      closed.set(true);
    }

    List<String> types() {
      return events.stream().map(e -> e.path("type").asText()).toList();
    }

    List<Long> revisions() {
      return events.stream()
          .map(e -> e.path("object").path("metadata").path("resourceVersion").asLong())
          .toList();
    }
  }
}
