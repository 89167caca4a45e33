package dev.threadline.core.events;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One event of a run's log (see {@link RunnerEventType}).
 *
 * @param seq the event's position in the run, from 1, increasing by 1
 * @param time when the worker made it
 * @param type what happened
 * @param data the type's fields, snake_case as the contract's events use; see {@link
 *     RunnerEventType}
 */
public record RunnerEvent(long seq, Instant time, RunnerEventType type, ObjectNode data) {

  public RunnerEvent {
    if (seq < 1) {
      throw new IllegalArgumentException("seq starts at 1, was " + seq);
    }
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(type, "type");
    // A copy, so an event handed around threads cannot change under its reader.
    data = data == null ? JsonNodeFactory.instance.objectNode() : data.deepCopy();
  }

  /** The data's text field {@code name}, or "" when it is absent. */
  public String text(String name) {
    return data.path(name).asText("");
  }

  /** The data's number field {@code name}, or 0 when it is absent. */
  public long number(String name) {
    return data.path(name).asLong(0);
  }

  @Override
  public ObjectNode data() {
    return data.deepCopy();
  }
}
