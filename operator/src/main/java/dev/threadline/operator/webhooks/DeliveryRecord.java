package dev.threadline.operator.webhooks;

import java.time.Instant;

/**
 * Where one message's delivery to one endpoint stands: attempts so far, the last HTTP status (0
 * for a timeout or connection failure), and the next attempt (null once it succeeded or gave up).
 */
public record DeliveryRecord(String id, String event, String url, int attempts, int lastStatus,
    Instant nextAttemptAt, State state) {
  public enum State { PENDING, DELIVERED, FAILED }
}
