package dev.threadline.operator.computer;

/**
 * A computer run cannot start for a reason the user can act on (its thread or environment is gone,
 * its input is too large). The run fails with {@code execution_failed} and this message.
 */
public final class AgentStartException extends RuntimeException {
  public AgentStartException(String message) {
    super(message);
  }
}
