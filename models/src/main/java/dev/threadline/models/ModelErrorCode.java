package dev.threadline.models;

import java.io.InterruptedIOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

/** Why a model call failed, in the terms a caller decides on: give up, fix config, or try later. */
public enum ModelErrorCode {
  /** The key is missing, wrong or lacks permission (HTTP 401/403). Retrying will not help. */
  AUTH("auth", false),
  /** The provider throttles us (HTTP 429). Retry later. */
  RATE_LIMITED("rate_limited", true),
  /** No answer within the configured timeout (or HTTP 408). Retry may help. */
  TIMEOUT("timeout", true),
  /**
   * The provider rejected the request (other 4xx): unknown model, too long a prompt, bad schema...
   */
  BAD_REQUEST("bad_request", false),
  /** The provider is down, overloaded (5xx) or unreachable. Retry later. */
  UNAVAILABLE("unavailable", true),
  /** The provider answered, but not in a shape we can use. */
  INVALID_REPLY("invalid_reply", false);

  private final String code;
  private final boolean retryable;

  ModelErrorCode(String code, boolean retryable) {
    this.code = code;
    this.retryable = retryable;
  }

  /** The stable lowercase name used in statuses, events and logs, e.g. {@code rate_limited}. */
  public String code() {
    return code;
  }

  /** Whether the same request may succeed later. */
  public boolean retryable() {
    return retryable;
  }

  /** The code for an HTTP error status a provider answered with. */
  public static ModelErrorCode forHttpStatus(int status) {
    if (status == 401 || status == 403) {
      return AUTH;
    }
    if (status == 429) {
      return RATE_LIMITED;
    }
    if (status == 408) {
      return TIMEOUT;
    }
    if (status >= 400 && status < 500) {
      return BAD_REQUEST;
    }
    return UNAVAILABLE;
  }

  /** The code for a call that got no HTTP answer: a timeout, or else an unreachable provider. */
  public static ModelErrorCode forTransportFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      // OkHttp reports both its call timeout and socket read timeouts as InterruptedIOException.
      if (t instanceof InterruptedIOException
          || t instanceof TimeoutException
          || t instanceof HttpTimeoutException) {
        return TIMEOUT;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return UNAVAILABLE;
  }

  @Override
  public String toString() {
    return code;
  }
}
