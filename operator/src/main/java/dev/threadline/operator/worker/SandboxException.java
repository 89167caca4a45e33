package dev.threadline.operator.worker;

/** The sandbox could not be reached, refused a call, or answered something that is not the API. */
public final class SandboxException extends RuntimeException {
  private final int status;

  public SandboxException(String message) {
    this(message, 0, null);
  }

  public SandboxException(String message, int status, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The HTTP status the sandbox answered, or 0 when there was no answer. */
  public int status() {
    return status;
  }
}
