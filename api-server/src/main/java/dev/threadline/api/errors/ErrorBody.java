package dev.threadline.api.errors;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The body of every error response: {@code {error, message}}, plus {@code usage} on 402. */
public record ErrorBody(
    String error, String message, @JsonInclude(JsonInclude.Include.NON_NULL) Usage usage) {

  public static ErrorBody of(ErrorKind kind, String message) {
    return new ErrorBody(kind.error(), message, null);
  }
}
