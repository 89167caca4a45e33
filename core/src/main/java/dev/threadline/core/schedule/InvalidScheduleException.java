package dev.threadline.core.schedule;

/** A schedule that cannot run, with the request field to blame. */
public final class InvalidScheduleException extends IllegalArgumentException {
  private final String field;

  public InvalidScheduleException(String field, String message) {
    super(message);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
