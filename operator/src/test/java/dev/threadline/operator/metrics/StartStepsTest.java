package dev.threadline.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class StartStepsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final StartSteps steps = new StartSteps(new OperatorMetrics(registry));

  @Test
  void eachStepIsTimedUnderItsLabelWhetherItSucceedsOrThrows() {
    assertThat(steps.time(StartStep.POD_CLAIM, () -> "claimed")).isEqualTo("claimed");
    assertThatThrownBy(() ->
            steps.time(
                StartStep.POD_CLAIM,
                () -> {
                  throw new IllegalStateException("409");
                }))
        .hasMessage("409");
    steps.since(StartStep.BIND_POST, System.nanoTime());

    assertThat(step("pod-claim").count()).isEqualTo(2);
    assertThat(step("bind-post").count()).isEqualTo(1);
    assertThat(registry.find("threadline_sandbox_start_step_duration").tag("step", "guard").timer())
        .isNull();
  }

  @Test
  void noneTimesNothing() {
    assertThat(StartSteps.NONE.time(StartStep.TASK, () -> 7)).isEqualTo(7);
    StartSteps.NONE.since(StartStep.TASK, System.nanoTime());

    assertThat(registry.getMeters()).isEmpty();
  }

  private Timer step(String label) {
    return registry.find("threadline_sandbox_start_step_duration").tag("step", label).timer();
  }
}
