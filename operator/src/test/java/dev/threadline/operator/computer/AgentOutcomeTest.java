package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.RunErrorCode;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentOutcomeTest {
  private static final Duration DEADLINE = Duration.ofSeconds(600);

  @Test
  void aRunningOrPendingSandboxHasNoOutcome() {
    assertThat(AgentOutcome.decide(Optional.of(pod("Running", null)), DEADLINE)).isEmpty();
    assertThat(AgentOutcome.decide(Optional.of(pod("Pending", null)), DEADLINE)).isEmpty();
  }

  @Test
  void aSandboxPastItsDeadlineIsAnExecutionTimeout() {
    assertThat(AgentOutcome.decide(Optional.of(pod("Failed", "DeadlineExceeded")), DEADLINE))
        .hasValueSatisfying(o -> {
          assertThat(o.error()).isEqualTo(RunErrorCode.EXECUTION_TIMEOUT);
          assertThat(o.message()).contains("600 seconds");
        });
  }

  @Test
  void aSandboxThatEndedFailsTheRunWithItsContainersReason() {
    Pod crashed = pod("Failed", null);
    crashed
        .getStatus()
        .getContainerStatuses()
        .add(
            new ContainerStatusBuilder()
                .withName("runner")
                .withNewState()
                .withNewTerminated()
                .withExitCode(137)
                .withReason("OOMKilled")
                .endTerminated()
                .endState()
                .build());
    assertThat(AgentOutcome.decide(Optional.of(crashed), DEADLINE))
        .hasValueSatisfying(o -> {
          assertThat(o.error()).isEqualTo(RunErrorCode.EXECUTION_FAILED);
          assertThat(o.message()).contains("OOMKilled (exit code 137)");
        });
  }

  @Test
  void aVanishedSandboxFailsTheRun() {
    assertThat(AgentOutcome.decide(Optional.empty(), DEADLINE))
        .hasValueSatisfying(o -> assertThat(o.error()).isEqualTo(RunErrorCode.EXECUTION_FAILED));
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
