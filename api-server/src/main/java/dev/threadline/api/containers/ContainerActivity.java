package dev.threadline.api.containers;

import dev.threadline.core.containers.ContainerExpiry;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Records that a container was used (any call on it but the list), which moves an ephemeral
 * container's expiry. To keep one write from following every file call, a use is written only when
 * the recorded one is older than a twentieth of the timeout (between 1 and 15 seconds): the expiry
 * is then never more than 5% early.
 */
final class ContainerActivity {
  private static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
  private static final Duration MAX_INTERVAL = Duration.ofSeconds(15);

  private final ContainerStore store;
  private final Clock clock;

  ContainerActivity(ContainerStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  void used(Container container) {
    Instant now = clock.instant();
    Optional<Instant> recorded = ContainerExpiry.lastActivity(container);
    if (recorded.isEmpty() || !recorded.get().plus(interval(container)).isAfter(now)) {
      store.recordActivity(
          container.getMetadata().getNamespace(), container.getMetadata().getName(), now);
    }
  }

  static Duration interval(Container container) {
    long timeout =
        container.getSpec() == null
            ? ContainerSpec.DEFAULT_TIMEOUT_MS
            : Objects.requireNonNullElse(
                container.getSpec().getTimeoutMs(), ContainerSpec.DEFAULT_TIMEOUT_MS);
    Duration twentieth = Duration.ofMillis(timeout / 20);
    return twentieth.compareTo(MIN_INTERVAL) < 0
        ? MIN_INTERVAL
        : twentieth.compareTo(MAX_INTERVAL) > 0 ? MAX_INTERVAL : twentieth;
  }
}
