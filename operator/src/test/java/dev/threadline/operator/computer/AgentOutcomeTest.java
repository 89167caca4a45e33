package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.core.events.RunnerFailureCode;
import dev.threadline.crds.run.RunErrorCode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentOutcomeTest {
  private static final Duration DEADLINE = Duration.ofSeconds(600);
  private static final RunnerEvent RESULT =
      new RunnerEvent(
          5,
          Instant.now(),
          RunnerEventType.RESULT,
          RunnerEventData.result("ok", List.of(), RunnerEventData.usage(1, 1, 0), List.of(), 1));
  private static final RunnerEvent FAILED =
      new RunnerEvent(
          5,
          Instant.now(),
          RunnerEventType.FAILED,
          RunnerEventData.failed(RunnerFailureCode.EXECUTION_FAILED, "turn limit reached: 30"));

  @Test
  void aResultCompletesTheRunBeforeThePodHasEnded() {
    Optional<AgentOutcome> outcome =
        AgentOutcome.decide(Optional.of(pod("Running", null)), log(RESULT, false), DEADLINE);
    assertThat(outcome).hasValueSatisfying(o -> assertThat(o.succeeded()).isTrue());
  }

  @Test
  void aRunningPodHasNoOutcomeYetEvenAfterTheRunnersFailedLine() {
    assertThat(AgentOutcome.decide(Optional.of(pod("Running", null)), log(FAILED, false), DEADLINE))
        .isEmpty();
  }

  @Test
  void anEndedPodWaitsForTheRestOfItsLog() {
    assertThat(AgentOutcome.decide(Optional.of(pod("Failed", null)), log(null, false), DEADLINE))
        .isEmpty();
  }

  @Test
  void theDeadlineWinsOverTheRunnersCancelledLine() {
    RunnerEvent cancelled =
        new RunnerEvent(
            3,
            Instant.now(),
            RunnerEventType.FAILED,
            RunnerEventData.failed(RunnerFailureCode.EXECUTION_FAILED, "cancelled"));
    Optional<AgentOutcome> outcome =
        AgentOutcome.decide(
            Optional.of(pod("Failed", "DeadlineExceeded")), log(cancelled, true), DEADLINE);
    assertThat(outcome)
        .hasValueSatisfying(o -> {
          assertThat(o.error()).isEqualTo(RunErrorCode.EXECUTION_TIMEOUT);
          assertThat(o.message()).contains("600 seconds");
        });
  }

  @Test
  void theRunnersFailureGivesCodeAndMessage() {
    Optional<AgentOutcome> outcome =
        AgentOutcome.decide(Optional.of(pod("Failed", null)), log(FAILED, true), DEADLINE);
    assertThat(outcome)
        .hasValueSatisfying(o -> {
          assertThat(o.error()).isEqualTo(RunErrorCode.EXECUTION_FAILED);
          assertThat(o.message()).isEqualTo("turn limit reached: 30");
          assertThat(o.runnerFailure()).isEqualTo(FAILED);
        });
  }

  @Test
  void aVanishedPodFailsTheRunUnlessItsResultCame() {
    assertThat(AgentOutcome.decide(Optional.empty(), Optional.empty(), DEADLINE))
        .hasValueSatisfying(o -> assertThat(o.error()).isEqualTo(RunErrorCode.EXECUTION_FAILED));
    assertThat(AgentOutcome.decide(Optional.empty(), log(RESULT, true), DEADLINE))
        .hasValueSatisfying(o -> assertThat(o.succeeded()).isTrue());
  }

  @Test
  void unknownRunnerCodesAreExecutionFailed() {
    assertThat(AgentOutcome.code("usage_exhausted")).isEqualTo(RunErrorCode.USAGE_EXHAUSTED);
    assertThat(AgentOutcome.code("something_new")).isEqualTo(RunErrorCode.EXECUTION_FAILED);
  }

  private static Optional<FollowedPod.Snapshot> log(RunnerEvent terminal, boolean ended) {
    return Optional.of(
        new FollowedPod.Snapshot(
            List.of(), Optional.ofNullable(terminal), ended, ended ? Instant.now() : null));
  }

  private static Pod pod(String phase, String reason) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .endMetadata()
        .withNewStatus()
        .withPhase(phase)
        .withReason(reason)
        .endStatus()
        .build();
  }
}
