package dev.threadline.core.events;

/**
 * The {@code code} of a {@code failed} event, as the contract's {@code response.failed} error
 * codes.
 */
public enum RunnerFailureCode {
  /** The run could not finish: a model error, the turn limit, a cancellation, a runner fault. */
  EXECUTION_FAILED("execution_failed"),
  /** The run took longer than it may. */
  EXECUTION_TIMEOUT("execution_timeout"),
  /** The user's usage allowance ran out during the run. */
  USAGE_EXHAUSTED("usage_exhausted");

  private final String code;

  RunnerFailureCode(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  @Override
  public String toString() {
    return code;
  }
}
