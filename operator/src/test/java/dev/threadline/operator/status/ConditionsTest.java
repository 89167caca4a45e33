package dev.threadline.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.operator.support.MutableClock;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final Conditions conditions = new Conditions(clock);

  @Test
  void keepsTransitionTimeWhileStatusUnchanged() {
    List<Condition> first = conditions.set(List.of(), "Ready", "True", "Valid", "ok", 1L);
    clock.set(Instant.parse("2026-01-01T00:05:00Z"));
    List<Condition> second = conditions.set(first, "Ready", "True", "Valid", "still ok", 2L);

    assertThat(second).hasSize(1);
    assertThat(second.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(second.get(0).getMessage()).isEqualTo("still ok");
    assertThat(second.get(0).getObservedGeneration()).isEqualTo(2L);
  }

  @Test
  void newStatusMovesTransitionTimeAndKeepsOtherTypes() {
    List<Condition> start = conditions.set(List.of(), "Built", "True", "Done", "", 1L);
    start = conditions.set(start, "Ready", "True", "Valid", "ok", 1L);
    clock.set(Instant.parse("2026-01-01T01:00:00Z"));
    List<Condition> next = conditions.set(start, "Ready", "False", "Broken", "no", 2L);

    assertThat(next).extracting(Condition::getType).containsExactly("Built", "Ready");
    assertThat(Conditions.find(next, "Ready").orElseThrow().getLastTransitionTime())
        .isEqualTo("2026-01-01T01:00:00Z");
  }

  @Test
  void aSummaryOnItsWaySetsReconcilingWithTheGenerationItDescribes() {
    List<Condition> building =
        conditions.summarise(
            List.of(), Conditions.Summary.reconciling("Unknown", "Building", "Job j builds"), 3L);

    assertThat(building)
        .extracting(c -> List.of(c.getType(), c.getStatus(), c.getReason()))
        .containsExactly(
            List.of("Ready", "Unknown", "Building"), List.of("Reconciling", "True", "Building"));
    assertThat(building).allMatch(c -> c.getObservedGeneration() == 3L);
    assertThat(
            Conditions.holds(
                building, Conditions.Summary.reconciling("Unknown", "Building", "Job j builds")))
        .isTrue();
    assertThat(Conditions.holds(building, Conditions.Summary.ready("Built", "Job j builds")))
        .isFalse();
  }

  @Test
  void readyRemovesReconcilingAndStalledAndKeepsOtherTypes() {
    List<Condition> start = conditions.set(List.of(), "Completed", "True", "Fired", null, 1L);
    start = conditions.summarise(start, Conditions.Summary.stalled("BuildFailed", "boom"), 1L);
    assertThat(start)
        .extracting(Condition::getType)
        .containsExactly("Completed", "Ready", "Stalled");

    List<Condition> ready =
        conditions.summarise(start, Conditions.Summary.ready("Built", "Image x is built."), 2L);

    assertThat(ready).extracting(Condition::getType).containsExactly("Completed", "Ready");
    assertThat(Conditions.holds(ready, Conditions.Summary.ready("Built", "Image x is built.")))
        .isTrue();
    // Stalled is no longer there, so a summary that says stalled does not hold.
    assertThat(Conditions.holds(ready, Conditions.Summary.stalled("Built", "Image x is built.")))
        .isFalse();
  }

  @Test
  void waitingIsReadyFalseWithNeitherReconcilingNorStalled() {
    List<Condition> pending =
        conditions.summarise(List.of(), Conditions.Summary.waiting("NotBuilt", "request one"), 1L);

    assertThat(pending)
        .singleElement()
        .satisfies(
            c -> assertThat(List.of(c.getType(), c.getStatus())).containsExactly("Ready", "False"));
  }
}
