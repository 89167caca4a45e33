package dev.threadline.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.agent.Agent;
import dev.threadline.crds.agent.AgentStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ReconcileErrorsTest {
  private final Conditions conditions =
      new Conditions(Clock.fixed(Instant.parse("2026-11-26T06:00:00Z"), ZoneOffset.UTC));

  @Test
  void failedReconcileIsReadyFalseWithTheInnermostMessage() {
    Agent agent = new Agent();
    agent.setMetadata(new ObjectMetaBuilder().withName("a").withGeneration(3L).build());
    Exception wrapped =
        new IllegalStateException(
            "workflow failed", new RuntimeException("pods \"x\" is forbidden: no room"));

    var control = ReconcileErrors.readyFalse(conditions, agent, AgentStatus::new, wrapped);

    assertThat(control.getResource()).isPresent();
    assertThat(Conditions.find(agent.getStatus().getConditions(), Conditions.READY))
        .hasValueSatisfying(ready -> {
          assertThat(ready.getStatus()).isEqualTo("False");
          assertThat(ready.getReason()).isEqualTo("ReconcileError");
          assertThat(ready.getMessage()).isEqualTo("pods \"x\" is forbidden: no room");
          assertThat(ready.getObservedGeneration()).isEqualTo(3L);
          assertThat(ready.getLastTransitionTime()).isEqualTo("2026-11-26T06:00:00Z");
        });
  }

  @Test
  void anErrorWithoutMessageIsNamedByItsType() {
    assertThat(ReconcileErrors.message(new NullPointerException()))
        .isEqualTo("NullPointerException");
  }
}
