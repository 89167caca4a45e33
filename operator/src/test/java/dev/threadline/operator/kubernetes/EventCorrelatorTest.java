package dev.threadline.operator.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventCorrelatorTest {
  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final EventCorrelator.Subject RUN =
      new EventCorrelator.Subject("alice", "Run", "run-1", "uid-1");
  private static final EventCorrelator.Subject OTHER =
      new EventCorrelator.Subject("alice", "Run", "run-2", "uid-2");

  private final EventCorrelator correlator = new EventCorrelator();
  private final AtomicInteger names = new AtomicInteger();

  private EventCorrelator.Decision observe(
      EventCorrelator.Subject subject, String reason, String message, Instant at) {
    return correlator.observe(
        subject, "Normal", reason, message, at, () -> "event-" + names.incrementAndGet());
  }

  @Test
  void theSameEventAgainBumpsTheCountOfTheOneRecorded() {
    EventCorrelator.Decision first = observe(RUN, "Routed", "Routed: computer", T0);
    EventCorrelator.Decision second =
        observe(RUN, "Routed", "Routed: computer", T0.plusSeconds(30));

    assertThat(first.isNew()).isTrue();
    assertThat(first.count()).isEqualTo(1);
    assertThat(second.isNew()).isFalse();
    assertThat(second.name()).isEqualTo(first.name());
    assertThat(second.count()).isEqualTo(2);
    assertThat(second.firstSeen()).isEqualTo(T0);
    assertThat(names).hasValue(1);
  }

  @Test
  void anotherMessageReasonOrObjectIsAnotherEvent() {
    String a = observe(RUN, "Routed", "Routed: computer", T0).name();
    String b = observe(RUN, "Routed", "Routed: direct", T0).name();
    String c = observe(RUN, "RunSucceeded", "Routed: computer", T0).name();
    String d = observe(OTHER, "Routed", "Routed: computer", T0).name();

    assertThat(List.of(a, b, c, d)).doesNotHaveDuplicates();
  }

  @Test
  void manySimilarEventsWithDifferentMessagesAreCombinedIntoOne() {
    List<EventCorrelator.Decision> decisions = new ArrayList<>();
    for (int i = 0; i < EventCorrelator.SIMILAR + 5; i++) {
      decisions.add(observe(RUN, "QuotaWait", "waiting " + i, T0.plusSeconds(i)));
    }

    assertThat(decisions.subList(0, EventCorrelator.SIMILAR))
        .allMatch(EventCorrelator.Decision::isNew);
    List<EventCorrelator.Decision> combined =
        decisions.subList(EventCorrelator.SIMILAR, decisions.size());
    assertThat(combined)
        .extracting(EventCorrelator.Decision::name)
        .containsOnly(combined.get(0).name());
    assertThat(combined).extracting(EventCorrelator.Decision::count).containsExactly(1, 2, 3, 4, 5);
    assertThat(combined.getLast().message())
        .isEqualTo(EventCorrelator.COMBINED + "waiting " + (EventCorrelator.SIMILAR + 4));
    // A message seen before the flood is still its own Event.
    assertThat(observe(RUN, "QuotaWait", "waiting 0", T0.plusSeconds(20)).name())
        .isEqualTo(decisions.get(0).name());
  }

  @Test
  void afterTheWindowSimilarMessagesAreTheirOwnEventsAgain() {
    for (int i = 0; i <= EventCorrelator.SIMILAR; i++) {
      observe(RUN, "QuotaWait", "waiting " + i, T0);
    }
    Instant later = T0.plus(EventCorrelator.WINDOW).plusSeconds(1);

    assertThat(observe(RUN, "QuotaWait", "waiting again", later).message())
        .isEqualTo("waiting again");
  }

  @Test
  void eachObjectHasABudgetThatRefillsSlowly() {
    int recorded = 0;
    for (int i = 0; i < EventCorrelator.BURST * 2; i++) {
      if (observe(RUN, "Routed", "Routed: computer", T0) != null) {
        recorded++;
      }
    }
    assertThat(recorded).isEqualTo(EventCorrelator.BURST);
    // Another object has its own budget.
    assertThat(observe(OTHER, "Routed", "Routed: computer", T0)).isNotNull();
    // One token comes back per refill period.
    Instant refilled = T0.plus(EventCorrelator.REFILL);
    assertThat(observe(RUN, "Routed", "Routed: computer", refilled)).isNotNull();
    assertThat(observe(RUN, "Routed", "Routed: computer", refilled)).isNull();
    assertThat(observe(RUN, "Routed", "Routed: computer", refilled.plus(Duration.ofMinutes(5))))
        .isNotNull();
  }

  @Test
  void anEventTheApiLostIsMadeAnew() {
    String first = observe(RUN, "Routed", "Routed: computer", T0).name();
    correlator.forget(first);

    EventCorrelator.Decision again = observe(RUN, "Routed", "Routed: computer", T0);
    assertThat(again.isNew()).isTrue();
    assertThat(again.name()).isNotEqualTo(first);
  }

  @Test
  void whatItRemembersIsBounded() {
    for (int i = 0; i < EventCorrelator.MAX_REMEMBERED + 10; i++) {
      observe(
          new EventCorrelator.Subject("alice", "Run", "run-" + i, "uid-" + i),
          "Routed",
          "Routed: computer",
          T0);
    }
    // The first object was forgotten: its Event again is a new one, with a fresh budget.
    assertThat(
            observe(
                    new EventCorrelator.Subject("alice", "Run", "run-0", "uid-0"),
                    "Routed",
                    "Routed: computer",
                    T0)
                .isNew())
        .isTrue();
  }
}
