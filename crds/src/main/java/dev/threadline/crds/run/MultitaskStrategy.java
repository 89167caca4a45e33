package dev.threadline.crds.run;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a message does to a thread that is still working on an earlier one ({@code
 * multitaskStrategy} on a follow-up, a Schedule's {@code spec.multitaskStrategy}).
 */
public enum MultitaskStrategy {
  /** Refused: the thread is busy (409). */
  REJECT("reject"),
  /** Waits, and runs after the thread's earlier messages, in order. */
  ENQUEUE("enqueue"),
  /** The unfinished runs are cancelled, keeping what they did; the message runs next. */
  INTERRUPT("interrupt"),
  /**
   * The unfinished runs are cancelled and undone (history and workspace); the message runs next.
   */
  ROLLBACK("rollback");

  /** The values, as a message or a schema pattern lists them. */
  public static final String VALUES = "reject, enqueue, interrupt, rollback";

  private final String value;

  MultitaskStrategy(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** Whether the thread's unfinished runs are cancelled for the new message. */
  public boolean cancelsEarlier() {
    return this == INTERRUPT || this == ROLLBACK;
  }

  public static Optional<MultitaskStrategy> fromValue(String value) {
    return Arrays.stream(values()).filter(strategy -> strategy.value.equals(value)).findFirst();
  }
}
