package dev.threadline.api.containers;

import dev.threadline.core.containers.ContainerExpiry;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Records that a container was used (any call on it but the list), which moves an ephemeral
 * container's expiry. To keep one write from following every file call, a use is written only when
 * the recorded one is older than a twentieth of the timeout (between 1 and 15 seconds): the expiry
 * is then never more than 5% early. A use by a key that may not write containers (a {@code read}
 * key) is not recorded: moving the expiry is a write, and a read-only key must not keep a container
 * alive.
 */
final class ContainerActivity {
  private static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
  private static final Duration MAX_INTERVAL = Duration.ofSeconds(15);

  private final ContainerStore store;
  private final Clock clock;
  private final BooleanSupplier callerMayWrite;

  ContainerActivity(ContainerStore store, Clock clock, BooleanSupplier callerMayWrite) {
    this.store = store;
    this.clock = clock;
    this.callerMayWrite = callerMayWrite;
  }

  void used(Container container) {
    if (!callerMayWrite.getAsBoolean()) {
      return;
    }
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
