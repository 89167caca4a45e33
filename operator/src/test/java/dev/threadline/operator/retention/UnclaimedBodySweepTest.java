package dev.threadline.operator.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.history.History;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class UnclaimedBodySweepTest {
  @Test
  void removesOnlyOldBodiesNoRunClaimedAndGivesTheirBytesBack() {
    try (History history = History.temporary()) {
      history.messageBodies().write("u", "thread-a", "claimed", "a".repeat(5000));
      history.messageBodies().claim("u", "claimed", "run-thread-a-1");
      long kept = history.usage().bytes("u");
      for (int i = 0; i < UnclaimedBodySweep.BATCH + 3; i++) {
        history.messageBodies().write("u", "thread-a", "orphan-" + i, "b".repeat(5000));
      }

      Clock now = Clock.systemUTC();
      try (UnclaimedBodySweep sweep = UnclaimedBodySweep.start(history, now)) {
        // Younger than its bound: kept.
        assertThat(sweep.sweepOnce()).isZero();
      }
      Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC);
      try (UnclaimedBodySweep sweep =
          UnclaimedBodySweep.start(history, later, UnclaimedBodySweep.AGE, Duration.ofMillis(50))) {
        await().atMost(Duration.ofSeconds(20)).until(() -> history.usage().bytes("u") == kept);
      }
      assertThat(history.messageBodies().read("u", "claimed")).hasValue("a".repeat(5000));
      assertThat(history.messageBodies().read("u", "orphan-0")).isEmpty();
      assertThat(history.messageBodies().read("u", "orphan-" + UnclaimedBodySweep.BATCH)).isEmpty();
    }
  }
}
