package dev.threadline.runner.run;

/** A run.json that cannot be used; the message names the field. */
public class InvalidRunInputException extends RuntimeException {

  private final String field;

  public InvalidRunInputException(String field, String problem) {
    super("run.json: " + field + ": " + problem);
    this.field = field;
  }

  /** The field's path, e.g. {@code mcpServers[1].url}. */
  public String field() {
    return field;
  }
}
