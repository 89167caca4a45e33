package dev.threadline.api.errors;

import java.util.Map;

/**
 * A failure the client should see as it is: the status and the message go out unchanged. Thrown
 * anywhere in request handling (controllers, services, filters); never carries secrets.
 */
public class ApiException extends RuntimeException {
  private final ErrorKind kind;
  private final Map<String, String> headers;

  public ApiException(ErrorKind kind, String message) {
    this(kind, message, Map.of());
  }

  public ApiException(ErrorKind kind, String message, Map<String, String> headers) {
    // No stack trace: these are expected outcomes, and they are never logged as failures.
    super(message, null, false, false);
    this.kind = kind;
    this.headers = Map.copyOf(headers);
  }

  public ErrorKind kind() {
    return kind;
  }

  /** Extra response headers, e.g. {@code WWW-Authenticate} on 401. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The error body this exception produces. */
  public ErrorBody body() {
    return ErrorBody.of(kind, getMessage());
  }

  /** 400 about one field or parameter; the message names it, e.g. {@code name is required}. */
  public static ApiException badRequest(String field, String problem) {
    return new ApiException(ErrorKind.BAD_REQUEST, field + " " + problem);
  }

  /** 400 with a complete message. */
  public static ApiException badRequest(String message) {
    return new ApiException(ErrorKind.BAD_REQUEST, message);
  }

  /** 401 with the one message every authentication failure shares (no hint which part failed). */
  public static ApiException unauthorized() {
    return new ApiException(
        ErrorKind.UNAUTHORIZED, "Missing or invalid API key", Map.of("WWW-Authenticate", "Bearer"));
  }

  public static ApiException forbidden(String message) {
    return new ApiException(ErrorKind.FORBIDDEN, message);
  }

  /** 404 for a thing, e.g. {@code notFound("Agent agent_123")} → "Agent agent_123 not found". */
  public static ApiException notFound(String what) {
    return new ApiException(ErrorKind.NOT_FOUND, what + " not found");
  }

  public static ApiException conflict(String message) {
    return new ApiException(ErrorKind.CONFLICT, message);
  }

  public static ApiException gone(String message) {
    return new ApiException(ErrorKind.GONE, message);
  }

  public static ApiException unprocessable(String message) {
    return new ApiException(ErrorKind.UNPROCESSABLE_ENTITY, message);
  }

  public static ApiException tooManyRequests(String message) {
    return new ApiException(ErrorKind.TOO_MANY_REQUESTS, message);
  }

  public static ApiException serviceUnavailable(String message) {
    return new ApiException(ErrorKind.SERVICE_UNAVAILABLE, message);
  }

  /** 402 with the caller's usage, as the contract requires. */
  public static UsageExhaustedException usageExhausted(Usage usage) {
    return new UsageExhaustedException(usage);
  }
}
