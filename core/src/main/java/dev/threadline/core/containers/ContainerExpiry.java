package dev.threadline.core.containers;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.container.Container;
import dev.threadline.crds.container.ContainerSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When an ephemeral container expires: {@code timeoutMs} after its last use (status.lastActivityAt,
 * written by the api-server), or after its creation when it was never used. Persistent containers
 * never expire. The operator deletes expired containers; the api-server shows when they expire.
 */
public final class ContainerExpiry {
  private ContainerExpiry() {}

  public static Optional<Instant> expiresAt(Container container) {
    if (Boolean.TRUE.equals(container.getSpec().getPersistent())) {
      return Optional.empty();
    }
    return lastActivity(container).map(last -> last.plusMillis(timeoutMs(container)));
  }

  /** The last use, never earlier than the creation. */
  public static Optional<Instant> lastActivity(Container container) {
    Optional<Instant> created = Timestamps.parse(container.getMetadata().getCreationTimestamp());
    Optional<Instant> used =
        Optional.ofNullable(container.getStatus())
            .flatMap(status -> Timestamps.parse(status.getLastActivityAt()));
    if (used.isPresent() && created.isPresent()) {
      return Optional.of(used.get().isAfter(created.get()) ? used.get() : created.get());
    }
    return used.or(() -> created);
  }

  /** How long until expiry; zero or negative when expired; empty when it never expires. */
  public static Optional<Duration> remaining(Container container, Instant now) {
    return expiresAt(container).map(at -> Duration.between(now, at));
  }

  private static long timeoutMs(Container container) {
    return Objects.requireNonNullElse(
        container.getSpec().getTimeoutMs(), ContainerSpec.DEFAULT_TIMEOUT_MS);
  }
}
