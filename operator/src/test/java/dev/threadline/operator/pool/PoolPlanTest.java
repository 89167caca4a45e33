package dev.threadline.operator.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolPlanTest {
  private static final String IMAGE = "registry.local/alice/env-a:2";

  @Test
  void anEmptyPoolIsFilledToItsSize() {
    PoolPlan plan = PoolPlan.of(3, IMAGE, List.of(), 100);

    assertThat(plan.remove()).isEmpty();
    assertThat(plan.create()).isEqualTo(3);
  }

  @Test
  void sandboxesOfAnOlderImageAreReplaced() {
    Pod old = pod("old", "registry.local/alice/env-a:1", "2026-01-01T00:00:00Z", "Running");
    Pod current = pod("current", IMAGE, "2026-01-01T00:00:01Z", "Running");

    PoolPlan plan = PoolPlan.of(2, IMAGE, List.of(old, current), 100);

    assertThat(plan.remove()).containsExactly(old);
    assertThat(plan.create()).isEqualTo(1);
  }

  @Test
  void surplusGoesNewestFirstAndEndedOnesGo() {
    Pod oldest = pod("oldest", IMAGE, "2026-01-01T00:00:00Z", "Running");
    Pod newer = pod("newer", IMAGE, "2026-01-01T00:00:05Z", "Pending");
    Pod ended = pod("ended", IMAGE, "2026-01-01T00:00:01Z", "Failed");

    PoolPlan plan = PoolPlan.of(1, IMAGE, List.of(newer, ended, oldest), 100);

    assertThat(plan.remove()).containsExactlyInAnyOrder(ended, newer);
    assertThat(plan.create()).isZero();
  }

  @Test
  void sizeZeroEmptiesThePoolAndTheCapBoundsNewOnes() {
    Pod one = pod("one", IMAGE, "2026-01-01T00:00:00Z", "Running");

    assertThat(PoolPlan.of(0, IMAGE, List.of(one), 100).remove()).containsExactly(one);
    assertThat(PoolPlan.of(5, IMAGE, List.of(one), 2).create()).isEqualTo(2);
    assertThat(PoolPlan.of(5, IMAGE, List.of(one), 0).create()).isZero();
  }

  private static Pod pod(String name, String image, String created, String phase) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withCreationTimestamp(created)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("runner")
        .withImage(image)
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase(phase)
        .endStatus()
        .build();
  }
}
