package dev.threadline.operator.computer;

import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.run.RunWait;
import dev.threadline.operator.status.Conditions;

/**
 * Where a run stands with a sandbox given back during a long wait for a person. The worker keeps
 * the workspace and asks for it ({@code status.waitingFor.sandboxGivenBack}, the worker's); the
 * computer path gives the Pod back and says so in the {@value #CONDITION} condition (the
 * operator's), takes a sandbox again once the call is answered or its wait timed out, and sets the
 * condition False once the wait is over on the sandbox taken again. Each step is read from the
 * Run's status alone, so a restart of either side goes on where it stood.
 */
public enum SandboxGiveBack {
  /** Nothing given back (or given back and over: {@link #OVER} was recorded). */
  NONE,
  /** The worker kept the workspace and gave the sandbox up; the Pod is still there. */
  REQUESTED,
  /** The Pod is given back; the run waits without a sandbox. */
  GIVEN_BACK,
  /** A sandbox was taken again; its workspace is restored before the wait goes on. */
  TAKEN_AGAIN,
  /** The wait on the sandbox taken again is over; the condition still says it is given back. */
  OVER;

  public static final String CONDITION = "SandboxGivenBack";
  static final String REASON_GIVEN_BACK = "GivenBackWhileWaiting";
  static final String REASON_TAKEN_AGAIN = "TakenAgain";

  public static SandboxGiveBack of(RunStatus status) {
    if (status == null) {
      return NONE;
    }
    RunWait wait = status.getWaitingFor();
    boolean asked = wait != null && wait.getSandboxGivenBack() != null;
    boolean givenBack =
        Conditions.find(status.getConditions(), CONDITION)
            .filter(condition -> Conditions.TRUE.equals(condition.getStatus()))
            .isPresent();
    if (!givenBack) {
      return asked ? REQUESTED : NONE;
    }
    if (!asked) {
      return OVER;
    }
    return status.getPod() == null ? GIVEN_BACK : TAKEN_AGAIN;
  }

  /** The run has no sandbox to work in (given back, or about to be): no worker takes it now. */
  public boolean withoutSandbox() {
    return this == REQUESTED || this == GIVEN_BACK;
  }
}
