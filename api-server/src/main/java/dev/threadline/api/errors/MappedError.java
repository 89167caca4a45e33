package dev.threadline.api.errors;

import java.util.Map;

/** What the client receives for a failure: status, body and any extra headers. */
public record MappedError(ErrorKind kind, ErrorBody body, Map<String, String> headers) {
  public MappedError {
    headers = Map.copyOf(headers);
  }

  public static MappedError of(ApiException exception) {
    return new MappedError(exception.kind(), exception.body(), exception.headers());
  }

  public static MappedError of(ErrorKind kind, String message) {
    return new MappedError(kind, ErrorBody.of(kind, message), Map.of());
  }

  public int status() {
    return kind.status();
  }
}
