package dev.threadline.core.containers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerSpec;
import dev.threadline.crds.container.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ContainerExpiryTest {
  private static final Instant CREATED = Instant.parse("2026-05-01T10:00:00Z");

  @Test
  void anUnusedContainerExpiresItsTimeoutAfterCreation() {
    Container container = container(false, 300_000L, null);

    assertThat(ContainerExpiry.expiresAt(container)).contains(CREATED.plusSeconds(300));
    assertThat(ContainerExpiry.remaining(container, CREATED.plusSeconds(299)))
        .contains(Duration.ofSeconds(1));
  }

  @Test
  void useMovesTheExpiry() {
    Container container = container(false, 60_000L, "2026-05-01T10:30:00.250Z");

    assertThat(ContainerExpiry.expiresAt(container))
        .contains(Instant.parse("2026-05-01T10:31:00.250Z"));
  }

  @Test
  void anActivityBeforeCreationCountsAsTheCreation() {
    Container container = container(false, 60_000L, "2026-05-01T09:00:00Z");

    assertThat(ContainerExpiry.expiresAt(container)).contains(CREATED.plusSeconds(60));
  }

  @Test
  void persistentContainersNeverExpire() {
    assertThat(
            ContainerExpiry.remaining(
                container(true, 1_000L, null), CREATED.plus(Duration.ofDays(30))))
        .isEmpty();
  }

  private static Container container(boolean persistent, long timeoutMs, String lastActivityAt) {
    Container container = new Container();
    container.setMetadata(
        new ObjectMetaBuilder()
            .withName("ctr-x")
            .withCreationTimestamp(CREATED.toString())
            .build());
    ContainerSpec spec = new ContainerSpec();
    spec.setPersistent(persistent);
    spec.setTimeoutMs(timeoutMs);
    container.setSpec(spec);
    ContainerStatus status = new ContainerStatus();
    status.setLastActivityAt(lastActivityAt);
    container.setStatus(status);
    return container;
  }
}
