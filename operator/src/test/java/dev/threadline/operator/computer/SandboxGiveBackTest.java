package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.run.RunWait;
import dev.threadline.operator.status.Conditions;
import java.time.Clock;
import org.junit.jupiter.api.Test;

class SandboxGiveBackTest {
  private final Conditions conditions = new Conditions(Clock.systemUTC());

  @Test
  void eachStepOfAGiveBackIsReadFromTheStatusAlone() {
    RunStatus status = new RunStatus();
    assertThat(SandboxGiveBack.of(null)).isEqualTo(SandboxGiveBack.NONE);
    status.setPod("run-t-1");
    status.setWaitingFor(new RunWait("call_t-1_2", RunWait.APPROVAL, "run_command", "x"));
    assertThat(SandboxGiveBack.of(status)).isEqualTo(SandboxGiveBack.NONE);

    status.getWaitingFor().setSandboxGivenBack("2026-12-02T19:00:00Z");
    assertThat(SandboxGiveBack.of(status)).isEqualTo(SandboxGiveBack.REQUESTED);

    status.setPod(null);
    condition(status, Conditions.TRUE);
    assertThat(SandboxGiveBack.of(status)).isEqualTo(SandboxGiveBack.GIVEN_BACK);

    status.setPod("pool-env-default-1");
    assertThat(SandboxGiveBack.of(status)).isEqualTo(SandboxGiveBack.TAKEN_AGAIN);

    status.setWaitingFor(null);
    assertThat(SandboxGiveBack.of(status)).isEqualTo(SandboxGiveBack.OVER);

    condition(status, Conditions.FALSE);
    assertThat(SandboxGiveBack.of(status)).isEqualTo(SandboxGiveBack.NONE);
  }

  @Test
  void onlyARunGivingItsSandboxBackOrWithoutOneIsLeftByTheWorkers() {
    assertThat(SandboxGiveBack.values())
        .filteredOn(SandboxGiveBack::withoutSandbox)
        .containsExactly(SandboxGiveBack.REQUESTED, SandboxGiveBack.GIVEN_BACK);
  }

  private void condition(RunStatus status, String value) {
    status.setConditions(
        conditions.set(
            status.getConditions(), SandboxGiveBack.CONDITION, value, "Reason", "message", null));
  }
}
