package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.threadline.core.kubernetes.EventObjects;
import dev.threadline.operator.support.MutableClock;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The recorder against fabric8's CRUD mock: a repeated Event is one object whose count grows. */
@EnableKubernetesMockClient(crud = true)
class KubernetesEventsMockServerTest {
  KubernetesClient client;

  @Test
  void aRepeatedEventIsOneObjectWithItsCountAndLastTimestampBumped() {
    MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    KubernetesEvents events = new KubernetesEvents(clock);
    ConfigMap about = subject("first");

    events.warning(client, about, "QuotaWait", "waiting for room");
    clock.advance(Duration.ofSeconds(42));
    events.warning(client, about, "QuotaWait", "waiting for room");
    events.normal(client, about, "Started", "x".repeat(5000));

    List<Event> recorded = client.v1().events().inNamespace("alice").list().getItems();
    assertThat(recorded).hasSize(2);
    Event wait =
        recorded.stream().filter(e -> "QuotaWait".equals(e.getReason())).findFirst().orElseThrow();
    assertThat(wait.getCount()).isEqualTo(2);
    assertThat(wait.getType()).isEqualTo("Warning");
    assertThat(wait.getFirstTimestamp()).isEqualTo("2026-12-01T10:00:00Z");
    assertThat(wait.getLastTimestamp()).isEqualTo("2026-12-01T10:00:42Z");
    assertThat(wait.getInvolvedObject().getName()).isEqualTo("first");
    assertThat(wait.getInvolvedObject().getUid()).isEqualTo("uid-first");
    Event started =
        recorded.stream().filter(e -> "Started".equals(e.getReason())).findFirst().orElseThrow();
    assertThat(started.getMessage()).hasSize(EventObjects.MAX_MESSAGE - 20 + 16);
    assertThat(started.getMessage()).endsWith("(message cut)");
  }

  @Test
  void anEventDeletedMeanwhileIsRecordedAgain() {
    KubernetesEvents events = new KubernetesEvents(new MutableClock(Instant.now()));
    ConfigMap about = subject("second");
    events.normal(client, about, "Refilled", "one more");
    client.v1().events().inNamespace("alice").delete();

    events.normal(client, about, "Refilled", "one more");

    assertThat(client.v1().events().inNamespace("alice").list().getItems())
        .singleElement()
        .satisfies(e -> assertThat(e.getReason()).isEqualTo("Refilled"));
  }

  @Test
  void inTheBackgroundEventsAreWrittenInTheOrderTheyWereDecided() {
    MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    KubernetesEvents events = KubernetesEvents.inBackground(clock);
    ConfigMap about = subject("third");

    // The second is a bump of the first: it can only land once the first was created.
    events.normal(client, about, "Routed", "Routed: direct");
    clock.advance(Duration.ofSeconds(1));
    events.normal(client, about, "Routed", "Routed: direct");
    events.normal(client, about, "RunSucceeded", "The run completed");

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          List<Event> recorded = client.v1().events().inNamespace("alice").list().getItems();
          assertThat(recorded)
              .extracting(Event::getReason, Event::getCount)
              .containsExactlyInAnyOrder(tuple("Routed", 2), tuple("RunSucceeded", 1));
        });
  }

  private ConfigMap subject(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("alice")
        .withUid("uid-" + name)
        .endMetadata()
        .build();
  }
}
