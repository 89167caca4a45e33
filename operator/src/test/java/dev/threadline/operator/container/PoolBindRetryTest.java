package dev.threadline.operator.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.operator.pool.WarmPools;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PoolBindRetryTest {
  private static final Instant CLAIMED = Instant.parse("2026-01-01T00:00:00Z");
  private final PoolBindRetry retry =
      new PoolBindRetry(Duration.ofSeconds(20), Duration.ofSeconds(1));

  @Test
  void triesAgainAfterThePauseWhileTheBoundIsAhead() {
    assertThat(retry.nextTry(claimedAt(CLAIMED), CLAIMED.plusSeconds(3)))
        .contains(Duration.ofSeconds(1));
  }

  @Test
  void theLastTryComesAtTheBound() {
    assertThat(retry.nextTry(claimedAt(CLAIMED), CLAIMED.plusMillis(19_600)))
        .contains(Duration.ofMillis(400));
  }

  @Test
  void givesUpOnceTheBoundHasPassedCountedFromTheClaim() {
    assertThat(retry.nextTry(claimedAt(CLAIMED), CLAIMED.plusSeconds(20))).isEmpty();
    assertThat(retry.nextTry(claimedAt(CLAIMED), CLAIMED.plusSeconds(600))).isEmpty();
  }

  @Test
  void aPodThatDoesNotSayWhenItWasClaimedIsGivenUpAtOnce() {
    Pod unrecorded = new PodBuilder().withNewMetadata().withName("pool-1").endMetadata().build();

    assertThat(retry.nextTry(unrecorded, CLAIMED)).isEmpty();
  }

  private static Pod claimedAt(Instant at) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("pool-1")
        .addToAnnotations(WarmPools.CLAIMED_AT, Timestamps.format(at))
        .endMetadata()
        .build();
  }
}
