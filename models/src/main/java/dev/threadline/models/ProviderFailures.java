package dev.threadline.models;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Turns what an HTTP provider's SDK threw into a {@link ModelException} with a code and a message
 * that is safe to log: the API key is masked, and the provider's error text is kept short.
 */
public final class ProviderFailures {

  /**
   * The SDKs start their messages with the status ("401: ..."); the exception states it already.
   */
  private static final Pattern STATUS_PREFIX = Pattern.compile("^\\d{3}:\\s*");

  private ProviderFailures() {}

  /**
   * The provider answered with an HTTP error status. No cause: the SDK exception holds the full
   * body.
   */
  public static ModelException httpError(
      String provider, int status, String providerMessage, String apiKey) {
    String message =
        STATUS_PREFIX.matcher(providerMessage == null ? "" : providerMessage).replaceFirst("");
    return new ModelException(
        provider,
        ModelErrorCode.forHttpStatus(status),
        status,
        Redaction.redact(message.isBlank() ? "no error message" : message, apiKey),
        null);
  }

  /** No HTTP answer: a timeout, or the provider could not be reached. */
  public static ModelException transport(
      String provider, Throwable failure, Duration timeout, String apiKey) {
    ModelErrorCode code = ModelErrorCode.forTransportFailure(failure);
    String message =
        code == ModelErrorCode.TIMEOUT
            ? "no answer within " + timeout.toMillis() + " ms"
            : describe(failure);
    return new ModelException(provider, code, 0, Redaction.redact(message, apiKey), failure);
  }

  /** The provider answered 2xx, but with a body we cannot read. */
  public static ModelException invalidReply(String provider, String problem, String apiKey) {
    return new ModelException(
        provider, ModelErrorCode.INVALID_REPLY, 0, Redaction.redact(problem, apiKey), null);
  }

  /**
   * The SDK could not make a reply of what the stream carried (its accumulator refused a chunk, as
   * openai-java does when a chunk holds both the usage and a {@code finish_reason}).
   */
  public static ModelException unreadableStream(
      String provider, RuntimeException failure, String apiKey) {
    return invalidReply(provider, "the reply could not be read: " + failure.getMessage(), apiKey);
  }

  /** The stream closed before its final event: what came is not a whole answer. */
  public static ModelException streamEnded(String provider) {
    return invalidReply(
        provider, "the stream ended before the answer was complete (no final event)", null);
  }

  /** The SDK's message and the root cause ("Request failed: java.net.ConnectException: ..."). */
  private static String describe(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == failure
        ? String.valueOf(failure.getMessage())
        : failure.getMessage() + ": " + root;
  }
}
