package dev.threadline.operator.webhooks;

/**
 * How one attempt went: the HTTP status (0 when no response came, null when no request was sent),
 * why it failed, and whether trying again may help.
 */
public record DeliveryAttempt(Integer statusCode, String error, boolean retryable) {
  public static DeliveryAttempt response(int statusCode) {
    boolean accepted = statusCode >= 200 && statusCode < 300;
    return new DeliveryAttempt(
        statusCode, accepted ? null : "the endpoint answered HTTP " + statusCode, true);
  }

  /** No response: a timeout, a refused or broken connection. */
  public static DeliveryAttempt noResponse(String error) {
    return new DeliveryAttempt(0, error, true);
  }

  /** Not sent, for a reason that may go away (a missing Secret). */
  public static DeliveryAttempt notSent(String error) {
    return new DeliveryAttempt(null, error, true);
  }

  /** Not sent, and never will be (a refused target). */
  public static DeliveryAttempt refused(String error) {
    return new DeliveryAttempt(null, error, false);
  }

  public boolean delivered() {
    return statusCode != null && statusCode >= 200 && statusCode < 300;
  }
}
