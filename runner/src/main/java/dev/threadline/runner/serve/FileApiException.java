package dev.threadline.runner.serve;

/** A request the file API refuses: the status and message go back to the caller as they are. */
final class FileApiException extends RuntimeException {
  private final int status;

  FileApiException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  int status() {
    return status;
  }

  static FileApiException badRequest(String message) {
    return new FileApiException(400, message);
  }

  static FileApiException notFound(String message) {
    return new FileApiException(404, message);
  }

  static FileApiException conflict(String message) {
    return new FileApiException(409, message);
  }

  static FileApiException tooLarge(long limit) {
    return new FileApiException(413, "uploads may have at most " + limit + " bytes");
  }
}
