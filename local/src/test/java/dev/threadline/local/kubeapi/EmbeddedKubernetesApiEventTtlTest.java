package dev.threadline.local.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.local.kubeapi.store.ObjectKey;
import dev.threadline.local.kubeapi.store.ObjectStore;
import dev.threadline.local.kubeapi.store.StoreOptions;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Events expire as kube-apiserver's {@code --event-ttl} makes them: a TTL after their last write,
 * each write starting it again, one DELETED to watchers per Event, other kinds untouched, and the
 * Events stored before a restart judged by their own last write.
 */
class EmbeddedKubernetesApiEventTtlTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void anEventIsDeletedOnceItsTtlHasPassedSinceItsLastWrite() {
    Duration ttl = Duration.ofSeconds(3);
    try (EmbeddedKubernetesApi api =
            EmbeddedKubernetesApi.start(EmbeddedApiSettings.builder().eventTtl(ttl).build());
        KubernetesClient client = api.newClient()) {
      List<String> deleted = new CopyOnWriteArrayList<>();
      try (Watch watch = client.v1().events().inNamespace("default").watch(deletions(deleted))) {
        Instant start = Instant.now();
        client.resource(event("quiet")).create();
        Event bumped = client.resource(event("bumped")).create();
        client
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("kept").endMetadata().build())
            .inNamespace("default")
            .create();
        // Written again two seconds in: its time starts again (a cluster's count bump does so).
        await().pollDelay(Duration.ofSeconds(2)).until(() -> true);
        bumped.setCount(2);
        client.resource(bumped).update();

        await().atMost(WAIT).until(() -> event(client, "quiet") == null);
        assertThat(Duration.between(start, Instant.now())).isGreaterThanOrEqualTo(ttl);
        assertThat(event(client, "bumped")).as("written again 2 s in: not expired yet").isNotNull();

        await().atMost(WAIT).until(() -> event(client, "bumped") == null);
        await().atMost(WAIT).until(() -> deleted.size() == 2);
        assertThat(deleted).containsExactlyInAnyOrder("quiet", "bumped");
      }
      assertThat(client.configMaps().inNamespace("default").withName("kept").get()).isNotNull();
    }
  }

  @Test
  void eventsStoredBeforeARestartExpireByTheirOwnLastWrite() throws Exception {
    Path file = Files.createTempDirectory("threadline-event-ttl").resolve("kubernetes.db");
    EmbeddedApiSettings settings =
        EmbeddedApiSettings.builder().storeFile(file).eventTtl(Duration.ofSeconds(30)).build();
    try (EmbeddedKubernetesApi api = EmbeddedKubernetesApi.start(settings)) {
      // Started once, so the namespaces and CRDs are there.
    }
    try (ObjectStore store = ObjectStore.open(file, StoreOptions.defaults())) {
      store(store, event("an-hour-old"), Instant.now().minus(Duration.ofHours(1)));
      store(store, event("just-now"), Instant.now());
    }
    try (EmbeddedKubernetesApi api = EmbeddedKubernetesApi.start(settings);
        KubernetesClient client = api.newClient()) {
      await().atMost(WAIT).until(() -> event(client, "an-hour-old") == null);
      assertThat(event(client, "just-now")).isNotNull();
    }
  }

  @Test
  void theLastWriteIsTheNewestManagedFieldsTimeElseTheEventsOwnTimestamps() {
    ObjectNode event = Json.MAPPER.convertValue(event("e"), ObjectNode.class);
    event.put("lastTimestamp", "2026-01-01T00:00:05Z");
    ((ObjectNode) event.path("metadata")).put("creationTimestamp", "2026-01-01T00:00:00Z");
    assertThat(EventExpiry.lastWrite(event)).contains(Instant.parse("2026-01-01T00:00:05Z"));

    ((ObjectNode) event.path("metadata"))
        .set(
            "managedFields",
            Json.MAPPER
                .createArrayNode()
                .add(Json.MAPPER.createObjectNode().put("time", "2026-01-01T00:01:00Z"))
                .add(Json.MAPPER.createObjectNode().put("time", "2026-01-01T00:00:30Z")));
    assertThat(EventExpiry.lastWrite(event)).contains(Instant.parse("2026-01-01T00:01:00Z"));
  }

  @Test
  void theSweepPauseIsATenthOfTheTtlWithinBounds() {
    assertThat(EventExpiry.sweepPause(Duration.ofHours(1))).isEqualTo(Duration.ofMinutes(1));
    assertThat(EventExpiry.sweepPause(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(3));
    assertThat(EventExpiry.sweepPause(Duration.ofMillis(200))).isEqualTo(Duration.ofMillis(100));
  }

  private static void store(ObjectStore store, Event event, Instant written) {
    event.getMetadata().setUid(UUID.randomUUID().toString());
    event
        .getMetadata()
        .setManagedFields(
            List.of(
                new ManagedFieldsEntryBuilder()
                    .withManager("test")
                    .withOperation("Update")
                    .withTime(written.toString())
                    .build()));
    store.create(
        new ObjectKey(EventExpiry.EVENTS, "default", event.getMetadata().getName()),
        Json.MAPPER.convertValue(event, ObjectNode.class));
  }

  private static Event event(KubernetesClient client, String name) {
    return client.v1().events().inNamespace("default").withName(name).get();
  }

  private static Event event(String name) {
    return new EventBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .withNewInvolvedObject()
        .withKind("ConfigMap")
        .withName("kept")
        .withNamespace("default")
        .endInvolvedObject()
        .withReason("Tested")
        .withMessage("an event of " + name)
        .withType("Normal")
        .withCount(1)
        .build();
  }

  private static Watcher<Event> deletions(List<String> deleted) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Event event) {
        if (action == Action.DELETED) {
          deleted.add(event.getMetadata().getName());
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }
}
