package dev.threadline.api.limits;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorBody;
import dev.threadline.api.errors.ErrorKind;

/**
 * 403 with {@code code: "limit_exceeded"}: a per-user object limit is reached. Not a 429: waiting
 * does not help, deleting does.
 */
public final class LimitExceededException extends ApiException {
  public static final String CODE = "limit_exceeded";

  public LimitExceededException(String message) {
    super(ErrorKind.FORBIDDEN, message);
  }

  @Override
  public ErrorBody body() {
    return new ErrorBody(kind().error(), getMessage(), null, CODE);
  }
}
