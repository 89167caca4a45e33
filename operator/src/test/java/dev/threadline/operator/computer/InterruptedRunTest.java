package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.pricing.ModelPricing;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.History;
import dev.threadline.history.StoredEvent;
import dev.threadline.models.Usage;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.support.Runs;
import dev.threadline.operator.usage.RunUsages;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run whose worker died with its process is ended as a failed run ends, from what the history
 * store holds: also events and a usage report the worker stored but never announced.
 */
class InterruptedRunTest {
  /** USD 1000 per million tokens: a token costs a tenth of a cent. */
  private static final ModelPricing PRICING = ModelPricing.parse("priced-model=1000/1000");

  private static final Instant STARTED = Instant.parse("2026-12-01T10:00:00Z");
  private static final Instant NOW = STARTED.plus(Duration.ofSeconds(30));

  @Test
  void itFailsWithItsMessageAnnouncingEveryStoredEventAndCountingTheLastReport() {
    try (History history = History.temporary()) {
      ComputerStatus statuses =
          new ComputerStatus(new EventRecorder(new RunEventLog(history), 4096));
      Run run = running();
      // Announced: a first report. Stored only (the worker died before its status write): a later
      // report and a reasoning event.
      RunStatus announced = run.getStatus();
      statuses.recorder().record(run, announced, List.of(usage(1, 100, 10)));
      announced.setUsage(RunUsages.of(new Usage(100, 10, 0)));
      statuses
          .recorder()
          .record(
              run,
              new RunStatus(),
              List.of(
                  usage(2, 300, 40),
                  new RunnerEvent(
                      3, NOW, RunnerEventType.REASONING, RunnerEventData.reasoning("next"))));
      assertThat(announced.getLastEventSeq()).isEqualTo(1L);

      assertThat(statuses.interrupt(run, run.getStatus(), "the process stopped", NOW, PRICING))
          .isTrue();

      List<StoredEvent> events = history.events().all(RunEventLog.key(run));
      assertThat(events).extracting(StoredEvent::type).endsWith("reasoning", "failed");
      assertThat(run.getStatus().getLastEventSeq()).isEqualTo((long) events.size());
      assertThat(run.getStatus().getPhase()).isEqualTo(RunPhase.FAILED.value());
      assertThat(run.getStatus().getError().getCode())
          .isEqualTo(RunErrorCode.EXECUTION_FAILED.code());
      assertThat(run.getStatus().getError().getMessage()).isEqualTo("the process stopped");
      assertThat(run.getStatus().getUsage().getInputTokens()).isEqualTo(300);
      assertThat(run.getStatus().getUsage().getOutputTokens()).isEqualTo(40);
      assertThat(run.getStatus().getCost()).isCloseTo(0.34, within(1e-9));
      assertThat(run.getStatus().getDurationMs()).isEqualTo(30_000L);
      assertThat(run.getStatus().getCompletedAt()).isEqualTo(Timestamps.format(NOW));
    }
  }

  @Test
  void aSecondEndingAfterACrashBeforeTheStatusWriteRecordsTheFailureOnce() {
    try (History history = History.temporary()) {
      ComputerStatus statuses =
          new ComputerStatus(new EventRecorder(new RunEventLog(history), 4096));
      Run run = running();
      Run copy = Serialization.clone(run);
      assertThat(statuses.interrupt(run, run.getStatus(), "stopped", NOW, PRICING)).isTrue();
      // The status write was lost: the next start ends the run again from the same Run.
      assertThat(statuses.interrupt(copy, copy.getStatus(), "stopped", NOW, PRICING)).isTrue();
      // Once ended, it stays so.
      assertThat(statuses.interrupt(copy, copy.getStatus(), "stopped", NOW, PRICING)).isFalse();

      List<StoredEvent> events = history.events().all(RunEventLog.key(run));
      assertThat(events).extracting(StoredEvent::type).containsOnlyOnce("failed");
      assertThat(copy.getStatus().getLastEventSeq()).isEqualTo((long) events.size());
    }
  }

  private static Run running() {
    Run run = Runs.run(1, "work", RunPhase.RUNNING.value(), null, 0, 0, 0);
    run.getMetadata().setUid("uid-interrupted");
    run.getStatus().setUsage(null);
    run.getStatus().setCost(null);
    run.getStatus().setModel("priced-model");
    run.getStatus().setStartedAt(Timestamps.format(STARTED));
    return run;
  }

  private static RunnerEvent usage(long seq, long inputTokens, long outputTokens) {
    return new RunnerEvent(
        seq, NOW, RunnerEventType.USAGE, RunnerEventData.usage(inputTokens, outputTokens, 0));
  }
}
