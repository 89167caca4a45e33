package dev.threadline.crds.run;

import java.util.Optional;

/** Where a Run is in its life; the last three are final. */
public enum RunPhase {
  PENDING("pending"),
  RUNNING("running"),
  COMPLETED("completed"),
  FAILED("failed"),
  CANCELLED("cancelled");

  private final String value;

  RunPhase(String value) {
    this.value = value;
  }

  /** The value written in {@code status.phase}. */
  public String value() {
    return value;
  }

  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }

  /**
   * Whether a {@code rollback} message undid the run: superseded that way and not ended by itself
   * first (a run that completed or failed before the rollback reached it stays as it ended).
   */
  public static boolean undone(Run run) {
    RunPhase phase = of(run);
    return run.getSpec() != null
        && run.getSpec().rolledBack()
        && (!phase.isTerminal() || phase == CANCELLED);
  }

  /** The phase of a run; a run without status is pending. */
  public static RunPhase of(Run run) {
    return Optional.ofNullable(run.getStatus())
        .map(RunStatus::getPhase)
        .map(RunPhase::fromValue)
        .orElse(PENDING);
  }

  public static RunPhase fromValue(String value) {
    for (RunPhase phase : values()) {
      if (phase.value.equals(value)) {
        return phase;
      }
    }
    throw new IllegalArgumentException("unknown run phase: " + value);
  }
}
