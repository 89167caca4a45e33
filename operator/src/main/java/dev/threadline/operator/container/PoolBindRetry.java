package dev.threadline.operator.container;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.operator.pool.WarmPools;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How long a container keeps trying to bind the pool Pod it claimed (the sandbox does not answer,
 * or refuses both the pool's credential and the container's) before it gives the Pod up and starts
 * cold. The time counts from the claim, which the Pod records ({@link WarmPools#CLAIMED_AT}), so a
 * restarted operator keeps the same bound; a claimed Pod without that record is given up at once.
 *
 * @param giveUpAfter how long after the claim the last try may start
 * @param retryEvery the pause between tries
 */
record PoolBindRetry(Duration giveUpAfter, Duration retryEvery) {
  static final PoolBindRetry DEFAULT =
      new PoolBindRetry(Duration.ofSeconds(20), Duration.ofSeconds(1));

  PoolBindRetry {
    if (!giveUpAfter.isPositive() || !retryEvery.isPositive()) {
      throw new IllegalArgumentException("giveUpAfter and retryEvery must be positive");
    }
  }

  /** The pause before the next try of binding {@code claimed}; empty: give it up now. */
  Optional<Duration> nextTry(Pod claimed, Instant now) {
    Map<String, String> annotations =
        Objects.requireNonNullElse(claimed.getMetadata().getAnnotations(), Map.of());
    Optional<Instant> claimedAt = Timestamps.parse(annotations.get(WarmPools.CLAIMED_AT));
    if (claimedAt.isEmpty()) {
      return Optional.empty();
    }
    Duration left = giveUpAfter.minus(Duration.between(claimedAt.get(), now));
    if (!left.isPositive()) {
      return Optional.empty();
    }
    return Optional.of(left.compareTo(retryEvery) < 0 ? left : retryEvery);
  }
}
