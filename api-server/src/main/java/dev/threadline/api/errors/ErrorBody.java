package dev.threadline.api.errors;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of every error response: {@code {error, message}}, plus {@code usage} on 402 and {@code
 * code} where a machine-readable reason helps ({@code limit_exceeded}).
 */
public record ErrorBody(
    String error,
    String message,
    @JsonInclude(JsonInclude.Include.NON_NULL) Usage usage,
    @JsonInclude(JsonInclude.Include.NON_NULL) String code) {

  public ErrorBody(String error, String message, Usage usage) {
    this(error, message, usage, null);
  }

  public static ErrorBody of(ErrorKind kind, String message) {
    return new ErrorBody(kind.error(), message, null);
  }
}
