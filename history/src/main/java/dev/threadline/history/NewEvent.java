package dev.threadline.history;

import java.util.Objects;

/**
 * An event to append to a run's log.
 *
 * @param key names the event for its writer, unique in the run (e.g. {@code runner:17} for the
 *     runner's 17th event, {@code started}): appending a key the run already has adds nothing, so a
 *     writer that repeats itself (a retried status write, a second worker after a failover) never
 *     records an event twice
 * @param type the event's type (its wire name)
 * @param time when it happened (RFC 3339, UTC)
 * @param data its payload as JSON
 */
public record NewEvent(String key, String type, String time, String data) {
  public NewEvent {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(data, "data");
  }
}
