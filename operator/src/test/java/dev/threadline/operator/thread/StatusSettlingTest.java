package dev.threadline.operator.thread;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.crds.thread.ThreadStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusSettlingTest {
  private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

  @Test
  void aNewThreadWithoutRunsOrStatusWaitsTheRestOfTheWindow() {
    ConversationThread thread = thread(NOW.minusMillis(500), null);

    assertThat(StatusSettling.wait(thread, List.of(), NOW))
        .contains(StatusSettling.WINDOW.minusMillis(500));
  }

  @Test
  void aThreadPastTheWindowOrAlreadyRolledUpIsWrittenNow() {
    assertThat(StatusSettling.wait(thread(NOW.minusSeconds(3), null), List.of(), NOW)).isEmpty();
    assertThat(StatusSettling.wait(thread(NOW, new ThreadStatus()), List.of(), NOW)).isEmpty();
  }

  @Test
  void aRunJustCreatedAndNotStartedMakesItsThreadWait() {
    ConversationThread thread = thread(NOW.minusSeconds(60), new ThreadStatus());
    Run fresh = run(thread, 2, NOW.minusMillis(100), null);
    Run ended = run(thread, 1, NOW.minusSeconds(30), RunPhase.COMPLETED);

    assertThat(StatusSettling.wait(thread, List.of(ended, fresh), NOW))
        .contains(StatusSettling.WINDOW.minusMillis(100));
  }

  @Test
  void aRunThatEndedStartedOrWaitedOutTheWindowIsWrittenNow() {
    ConversationThread thread = thread(NOW.minusSeconds(60), null);
    Run ended = run(thread, 1, NOW.minusMillis(10), RunPhase.COMPLETED);
    Run started = run(thread, 2, NOW.minusMillis(10), RunPhase.RUNNING);
    Run old = run(thread, 3, NOW.minusSeconds(5), null);

    assertThat(StatusSettling.wait(thread, List.of(ended), NOW)).isEmpty();
    assertThat(StatusSettling.wait(thread, List.of(started), NOW)).isEmpty();
    assertThat(StatusSettling.wait(thread, List.of(old), NOW)).isEmpty();
  }

  @Test
  void aCreationAheadOfThisClockWaitsTheWindowAtMost() {
    ConversationThread thread = thread(NOW.plusSeconds(30), null);

    assertThat(StatusSettling.wait(thread, List.of(), NOW)).contains(StatusSettling.WINDOW);
  }

  private static ConversationThread thread(Instant created, ThreadStatus status) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(
        new ObjectMetaBuilder()
            .withName("settling")
            .withNamespace("alice")
            .withCreationTimestamp(Timestamps.format(created))
            .build());
    thread.setSpec(new ThreadSpec());
    thread.setStatus(status);
    return thread;
  }

  private static Run run(
      ConversationThread thread, long sequence, Instant created, RunPhase phase) {
    Run run = ThreadRuns.newRun(thread, sequence, "Hello!", List.of(), ThreadRuns.SOURCE_API);
    run.getMetadata().setCreationTimestamp(Timestamps.format(created));
    if (phase != null) {
      RunStatus status = new RunStatus();
      status.setPhase(phase.value());
      status.setStartedAt(Timestamps.format(created));
      run.setStatus(status);
    }
    return run;
  }
}
