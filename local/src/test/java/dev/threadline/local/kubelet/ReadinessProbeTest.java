package dev.threadline.local.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.operator.support.LoopbackServer;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReadinessProbeTest {

  @Test
  void aContainerWithoutAnHttpGetProbeHasNone() {
    assertThat(ReadinessProbe.of(new ContainerBuilder().withName("c").build())).isEmpty();
  }

  @Test
  void succeedsOnceThePathAnswers2xx() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    try (LoopbackServer server =
        LoopbackServer.start(
            "/health",
            exchange -> {
              int status = asked.incrementAndGet() < 3 ? 503 : 200;
              exchange.sendResponseHeaders(status, -1);
            })) {
      ReadinessProbe probe = ReadinessProbe.of(probed(server.port())).orElseThrow();

      assertThat(probe.await(() -> true)).isTrue();
      assertThat(asked.get()).isEqualTo(3);
    }
  }

  @Test
  void givesUpWhenTheContainerStops() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    ReadinessProbe probe = ReadinessProbe.of(probed(1)).orElseThrow(); // nothing listens on port 1

    assertThat(probe.await(() -> polls.incrementAndGet() < 3)).isFalse();
    assertThat(polls.get()).isEqualTo(3);
  }

  @Test
  void aProbedContainerMakesThePodReadyOnlyWhenItsProbeSucceeds() {
    PodStatusTracker tracker =
        new PodStatusTracker(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("n")
                .endMetadata()
                .withNewSpec()
                .withContainers(probed(8080))
                .endSpec()
                .build());
    Instant now = Instant.now();

    tracker.started("runner", 42, now, true);
    assertThat(ready(tracker.snapshot())).isEqualTo("False");

    tracker.ready("runner", now);
    assertThat(ready(tracker.snapshot())).isEqualTo("True");
  }

  private static String ready(PodStatus status) {
    return status.getConditions().stream()
        .filter(condition -> "Ready".equals(condition.getType()))
        .map(PodCondition::getStatus)
        .findFirst()
        .orElseThrow();
  }

  private static Container probed(int port) {
    return new ContainerBuilder()
        .withName("runner")
        .withImage("threadline/runner:local")
        .withNewReadinessProbe()
        .withNewHttpGet()
        .withPath("/health")
        .withPort(new IntOrString(port))
        .endHttpGet()
        .endReadinessProbe()
        .build();
  }
}
