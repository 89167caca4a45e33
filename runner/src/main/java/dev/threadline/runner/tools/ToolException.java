package dev.threadline.runner.tools;

/** A tool call that could not be done; the message is shown to the model and the user. */
public class ToolException extends RuntimeException {

  public ToolException(String message) {
    super(message);
  }

  public ToolException(String message, Throwable cause) {
    super(message, cause);
  }
}
