package dev.threadline.models;

import java.util.Objects;

/**
 * A model call that failed. The message is safe to show and to log: providers never put the API key
 * or the conversation in it.
 */
public class ModelException extends RuntimeException {

  private final String provider;
  private final ModelErrorCode code;
  private final int httpStatus;

  /**
   * @param provider the {@link ModelProvider#name()} that failed
   * @param code why
   * @param httpStatus the provider's HTTP status, or 0 when there was no HTTP answer
   * @param message what happened, without secrets
   * @param cause the underlying failure, or null
   */
  public ModelException(
      String provider, ModelErrorCode code, int httpStatus, String message, Throwable cause) {
    super(
        provider
            + " model call failed ("
            + code.code()
            + (httpStatus > 0 ? ", HTTP " + httpStatus : "")
            + "): "
            + message,
        cause);
    this.provider = Objects.requireNonNull(provider, "provider");
    this.code = Objects.requireNonNull(code, "code");
    this.httpStatus = httpStatus;
  }

  public ModelException(String provider, ModelErrorCode code, String message) {
    this(provider, code, 0, message, null);
  }

  public String provider() {
    return provider;
  }

  public ModelErrorCode code() {
    return code;
  }

  /** The HTTP status the provider answered with, or 0 when there was no HTTP answer. */
  public int httpStatus() {
    return httpStatus;
  }

  /** Whether the same request may succeed later (rate limits, timeouts, outages). */
  public boolean retryable() {
    return code.retryable();
  }
}
