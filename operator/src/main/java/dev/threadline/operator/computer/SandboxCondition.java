package dev.threadline.operator.computer;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.status.Conditions;
import java.util.Arrays;
import java.util.Optional;

/**
 * The computer path's report that a run's sandbox cannot serve it: the Run's {@code SandboxReady}
 * condition, False, its reason the error the run is to end with ({@code ExecutionFailed}, {@code
 * ExecutionTimeout}), its message why (a missing environment, no free port, a quota that stayed
 * full, the Pod's deadline, a crash, a deletion). It is a fact about the sandbox, not the run's
 * outcome: the computer path records it and never the run's phase; the worker, which owns the
 * outcome, reads it and ends the run with it (docs/operator-status.md).
 *
 * <p>While the sandbox waits to be made (every port of the range in use), the condition is {@code
 * Unknown}, reason {@value #WAITING_FOR_PORT}: no failure, only what a person looking at the run
 * sees; it goes once the sandbox is made.
 */
public final class SandboxCondition {
  public static final String TYPE = "SandboxReady";

  /** The reason of {@code SandboxReady=Unknown} while no port of the range is free. */
  public static final String WAITING_FOR_PORT = "WaitingForPort";

  private SandboxCondition() {}

  /**
   * Records {@code failure} (a failed outcome) as {@code SandboxReady=False}; false when a failure
   * was reported already (the first stands: the worker may be ending the run with it), so that
   * nothing is written.
   */
  static boolean record(Run run, RunStatus status, AgentOutcome failure, Conditions conditions) {
    if (failure(status).isPresent()) {
      return false;
    }
    status.setConditions(
        conditions.set(
            status.getConditions(),
            TYPE,
            Conditions.FALSE,
            reason(failure.error()),
            failure.message(),
            run.getMetadata().getGeneration()));
    return true;
  }

  /**
   * Records that the run's sandbox waits ({@code Unknown}, {@code reason}, {@code message}); false
   * when that is recorded already or a failure was reported, so that nothing is written.
   */
  static boolean waiting(
      Run run, RunStatus status, String reason, String message, Conditions conditions) {
    boolean recorded =
        Conditions.find(status.getConditions(), TYPE)
            .filter(condition -> Conditions.UNKNOWN.equals(condition.getStatus()))
            .filter(condition -> reason.equals(condition.getReason()))
            .filter(condition -> message.equals(condition.getMessage()))
            .isPresent();
    if (recorded || failure(status).isPresent()) {
      return false;
    }
    status.setConditions(
        conditions.set(
            status.getConditions(),
            TYPE,
            Conditions.UNKNOWN,
            reason,
            message,
            run.getMetadata().getGeneration()));
    return true;
  }

  /** The sandbox was made: a wait recorded for it is over (a failure stays). */
  static void waitOver(RunStatus status) {
    if (Conditions.find(status.getConditions(), TYPE)
        .filter(condition -> Conditions.UNKNOWN.equals(condition.getStatus()))
        .isPresent()) {
      status.setConditions(Conditions.without(status.getConditions(), TYPE));
    }
  }

  /** The failure the computer path reported for the run's sandbox; empty while none was. */
  public static Optional<AgentOutcome> failure(RunStatus status) {
    return Optional.ofNullable(status)
        .flatMap(s -> Conditions.find(s.getConditions(), TYPE))
        .filter(condition -> Conditions.FALSE.equals(condition.getStatus()))
        .map(condition ->
            AgentOutcome.failed(
                Arrays.stream(RunErrorCode.values())
                    .filter(code -> reason(code).equals(condition.getReason()))
                    .findFirst()
                    .orElse(RunErrorCode.EXECUTION_FAILED),
                condition.getMessage()));
  }

  /** {@code execution_timeout} → {@code ExecutionTimeout}: the condition's reason for an error. */
  static String reason(RunErrorCode code) {
    StringBuilder reason = new StringBuilder();
    for (String word : code.code().split("_")) {
      reason.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
    }
    return reason.toString();
  }
}
