package dev.threadline.runner.serve;

/** A request the sandbox API refuses: the status and message go back to the caller as they are. */
public final class FileApiException extends RuntimeException {
  private final int status;

  public FileApiException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public int status() {
    return status;
  }

  public static FileApiException badRequest(String message) {
    return new FileApiException(400, message);
  }

  public static FileApiException notFound(String message) {
    return new FileApiException(404, message);
  }

  public static FileApiException conflict(String message) {
    return new FileApiException(409, message);
  }

  public static FileApiException tooLarge(long limit) {
    return new FileApiException(413, "uploads may have at most " + limit + " bytes");
  }
}
