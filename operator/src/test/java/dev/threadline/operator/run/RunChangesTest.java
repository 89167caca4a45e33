package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.run.RunWait;
import dev.threadline.operator.status.Conditions;
import java.time.Clock;
import org.junit.jupiter.api.Test;

class RunChangesTest {
  private final RunChanges changes = new RunChanges();
  private final RunReadiness readiness = new RunReadiness(new Conditions(Clock.systemUTC()));

  private Run run(String route, String phase, boolean withReady) {
    Run run = new Run();
    run.getMetadata().setName("run-t-1");
    run.getMetadata().setGeneration(1L);
    RunStatus status = new RunStatus();
    status.setRoute(route);
    status.setPhase(phase);
    if ("failed".equals(phase)) {
      RunError error = new RunError();
      error.setCode("execution_failed");
      error.setMessage("boom");
      status.setError(error);
    }
    run.setStatus(status);
    if (withReady) {
      readiness.apply(run, status);
    }
    return run;
  }

  @Test
  void aDirectRunEndedWithItsReadyConditionWakesNothing() {
    Run pending = run(null, "pending", false);

    assertThat(changes.accept(run("direct", "completed", true), pending)).isFalse();
    assertThat(changes.accept(run("direct", "failed", true), pending)).isFalse();
    assertThat(changes.accept(run(null, "failed", true), pending))
        .as("refused before routing (usage exhausted)")
        .isFalse();
  }

  @Test
  void anEndThatLeavesWorkWakesTheReconciler() {
    assertThat(changes.accept(run("direct", "completed", false), run(null, "pending", false)))
        .as("its Ready condition is still to be set")
        .isTrue();
    assertThat(changes.accept(run("computer", "completed", true), run("computer", "running", true)))
        .as("its sandbox goes")
        .isTrue();
    assertThat(changes.accept(run("computer", "running", true), run(null, "pending", false)))
        .isTrue();
  }

  @Test
  void writesThatKeepThePhaseWakeNothingButSpecChangesAndDeletionsDo() {
    Run ended = run("direct", "completed", true);
    Run marked = run("direct", "completed", true);
    marked.getStatus().setUsageRecorded(true);
    assertThat(changes.accept(marked, ended)).as("the usage recorder's mark").isFalse();

    Run cancelled = run("computer", "running", true);
    cancelled.getMetadata().setGeneration(2L);
    assertThat(changes.accept(cancelled, run("computer", "running", true))).isTrue();

    Run deleting = run("direct", "completed", true);
    deleting.getMetadata().setDeletionTimestamp("2026-11-26T14:00:00Z");
    assertThat(changes.accept(deleting, ended)).isTrue();
  }

  @Test
  void theWorkerGivingAWaitingRunsSandboxUpAndThatWaitEndingWakeTheReconciler() {
    Run waiting = run("computer", "running", false);
    waiting
        .getStatus()
        .setWaitingFor(new RunWait("call_t-1_2", RunWait.APPROVAL, "run_command", "x"));
    Run givenUp = run("computer", "running", false);
    givenUp
        .getStatus()
        .setWaitingFor(new RunWait("call_t-1_2", RunWait.APPROVAL, "run_command", "x"));
    givenUp.getStatus().getWaitingFor().setSandboxGivenBack("2026-12-02T19:00:00Z");

    assertThat(changes.accept(waiting, run("computer", "running", false)))
        .as("a wait begins: nothing for the computer path")
        .isFalse();
    assertThat(changes.accept(givenUp, waiting)).as("the Pod is to go").isTrue();
    assertThat(changes.accept(run("computer", "running", false), givenUp))
        .as("the wait on the sandbox taken again is over")
        .isTrue();
  }
}
