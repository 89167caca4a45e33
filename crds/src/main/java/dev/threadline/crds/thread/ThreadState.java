package dev.threadline.crds.thread;

/** The contract's thread status values. */
public enum ThreadState {
  ACTIVE("active"),
  RUNNING("running"),
  COMPLETED("completed"),
  FAILED("failed"),
  CANCELLED("cancelled");

  private final String value;

  ThreadState(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  public static ThreadState fromValue(String value) {
    for (ThreadState state : values()) {
      if (state.value.equals(value)) {
        return state;
      }
    }
    throw new IllegalArgumentException("unknown thread status: " + value);
  }
}
