package dev.threadline.crds.run;

/** The contract's execution error codes, as written in {@code status.error.code}. */
public enum RunErrorCode {
  USAGE_EXHAUSTED("usage_exhausted"),
  EXECUTION_TIMEOUT("execution_timeout"),
  EXECUTION_FAILED("execution_failed"),
  RATE_LIMITED("rate_limited"),
  CANCELLED("cancelled");

  private final String code;

  RunErrorCode(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }
}
