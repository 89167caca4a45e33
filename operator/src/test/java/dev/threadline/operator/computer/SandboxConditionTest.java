package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SandboxConditionTest {
  private final Conditions conditions =
      new Conditions(Clock.fixed(Instant.parse("2026-11-26T10:00:00Z"), ZoneOffset.UTC));

  @Test
  void aReportedFailureIsReadBackWithItsErrorCodeAndMessage() {
    Run run = run();
    AgentOutcome timeout =
        AgentOutcome.failed(
            RunErrorCode.EXECUTION_TIMEOUT, "No agent Pod could start within 600 s");

    assertThat(SandboxCondition.record(run, run.getStatus(), timeout, conditions)).isTrue();

    assertThat(Conditions.find(run.getStatus().getConditions(), SandboxCondition.TYPE))
        .hasValueSatisfying(condition -> {
          assertThat(condition.getStatus()).isEqualTo(Conditions.FALSE);
          assertThat(condition.getReason()).isEqualTo("ExecutionTimeout");
          assertThat(condition.getObservedGeneration()).isEqualTo(3L);
        });
    assertThat(SandboxCondition.failure(run.getStatus())).contains(timeout);
    // The phase is not the computer path's: a report leaves it alone.
    assertThat(run.getStatus().getPhase()).isEqualTo("running");
  }

  @Test
  void theFirstReportStandsAndARepeatWritesNothing() {
    Run run = run();
    AgentOutcome deleted =
        AgentOutcome.failed(RunErrorCode.EXECUTION_FAILED, "The agent Pod was deleted");
    SandboxCondition.record(run, run.getStatus(), deleted, conditions);

    assertThat(SandboxCondition.record(run, run.getStatus(), deleted, conditions)).isFalse();
    AgentOutcome later = AgentOutcome.failed(RunErrorCode.EXECUTION_TIMEOUT, "past its deadline");
    assertThat(SandboxCondition.record(run, run.getStatus(), later, conditions)).isFalse();
    assertThat(run.getStatus().getConditions()).hasSize(1);
    assertThat(SandboxCondition.failure(run.getStatus())).contains(deleted);
  }

  @Test
  void aRunWithoutAReportHasNoImposedEndingUnlessItIsCancelled() {
    Run run = run();
    assertThat(SandboxCondition.failure(run.getStatus())).isEmpty();
    assertThat(SandboxCondition.failure(null)).isEmpty();
    assertThat(AgentOutcome.imposed(run)).isEmpty();

    run.getSpec().setCancelRequested(true);
    assertThat(AgentOutcome.imposed(run)).contains(AgentOutcome.cancelled());
  }

  @Test
  void everyErrorCodeHasItsOwnReason() {
    for (RunErrorCode code : RunErrorCode.values()) {
      Run run = run();
      SandboxCondition.record(run, run.getStatus(), AgentOutcome.failed(code, "why"), conditions);
      assertThat(SandboxCondition.failure(run.getStatus()))
          .hasValueSatisfying(failure -> assertThat(failure.error()).isEqualTo(code));
    }
  }

  private static Run run() {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder().withName("run-a-1").withNamespace("ns").withGeneration(3L).build());
    run.setSpec(new RunSpec());
    RunStatus status = new RunStatus();
    status.setPhase("running");
    run.setStatus(status);
    return run;
  }
}
