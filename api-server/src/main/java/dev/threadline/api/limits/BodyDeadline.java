package dev.threadline.api.limits;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import java.time.Duration;

/**
 * When a request body must have arrived. Checked on every read, so a body that trickles (a byte
 * every few seconds, each read within the connection's read timeout) still ends, with a 408.
 */
record BodyDeadline(long deadlineNanos, Duration timeout) {
  static BodyDeadline after(Duration timeout) {
    return new BodyDeadline(System.nanoTime() + timeout.toNanos(), timeout);
  }

  void check() {
    if (System.nanoTime() - deadlineNanos > 0) {
      throw new ApiException(
          ErrorKind.REQUEST_TIMEOUT,
          "The request body did not arrive within " + timeout.toSeconds() + " s");
    }
  }
}
