package dev.threadline.core.network;

/**
 * A user-given URL that may not be called: its message completes a sentence that starts with the
 * field's name ({@code webhooks[0].url must not carry a user name or password}).
 */
public final class InvalidTargetException extends IllegalArgumentException {
  public InvalidTargetException(String message) {
    super(message);
  }
}
