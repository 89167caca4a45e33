package dev.threadline.api.errors;

/**
 * The HTTP statuses the API answers with, each with the exact {@code error} string the contract
 * puts in the error body (the standard reason phrase).
 */
public enum ErrorKind {
  BAD_REQUEST(400, "Bad Request"),
  UNAUTHORIZED(401, "Unauthorized"),
  PAYMENT_REQUIRED(402, "Payment Required"),
  FORBIDDEN(403, "Forbidden"),
  NOT_FOUND(404, "Not Found"),
  METHOD_NOT_ALLOWED(405, "Method Not Allowed"),
  NOT_ACCEPTABLE(406, "Not Acceptable"),
  REQUEST_TIMEOUT(408, "Request Timeout"),
  CONFLICT(409, "Conflict"),
  GONE(410, "Gone"),
  PAYLOAD_TOO_LARGE(413, "Payload Too Large"),
  UNSUPPORTED_MEDIA_TYPE(415, "Unsupported Media Type"),
  UNPROCESSABLE_ENTITY(422, "Unprocessable Entity"),
  TOO_MANY_REQUESTS(429, "Too Many Requests"),
  INTERNAL_SERVER_ERROR(500, "Internal Server Error"),
  SERVICE_UNAVAILABLE(503, "Service Unavailable");

  private final int status;
  private final String error;

  ErrorKind(int status, String error) {
    this.status = status;
    this.error = error;
  }

  public int status() {
    return status;
  }

  /** The body's {@code error} field. */
  public String error() {
    return error;
  }

  /**
   * The kind for an HTTP status; a status we do not name becomes a client or server error of the
   * nearest general kind, so the body stays one of the strings clients know.
   */
  public static ErrorKind ofStatus(int status) {
    for (ErrorKind kind : values()) {
      if (kind.status == status) {
        return kind;
      }
    }
    return status >= 400 && status < 500 ? BAD_REQUEST : INTERNAL_SERVER_ERROR;
  }
}
