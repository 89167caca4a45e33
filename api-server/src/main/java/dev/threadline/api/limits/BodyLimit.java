package dev.threadline.api.limits;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;

/**
 * The most bytes one endpoint reads from a request body, and the 413 over it.
 *
 * @param bytes the limit
 * @param what what the body is, for the message ("Request bodies", "Uploads")
 */
public record BodyLimit(long bytes, String what) {
  /** The refusal of a body over the limit. */
  public ApiException refusal() {
    return new BodyTooLargeException(
        what + " may have at most " + bytes + " bytes (" + bytes / (1024 * 1024) + " MiB)");
  }

  /** A 413 raised while a body is read, so that code in between can tell it from an I/O fault. */
  public static final class BodyTooLargeException extends ApiException {
    BodyTooLargeException(String message) {
      super(ErrorKind.PAYLOAD_TOO_LARGE, message);
    }

    /** The refusal somewhere in {@code failure}'s causes, if the failure is one. */
    public static java.util.Optional<BodyTooLargeException> in(Throwable failure) {
      for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
        if (t instanceof BodyTooLargeException tooLarge) {
          return java.util.Optional.of(tooLarge);
        }
      }
      return java.util.Optional.empty();
    }
  }
}
