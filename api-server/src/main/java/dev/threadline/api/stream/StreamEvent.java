package dev.threadline.api.stream;

import tools.jackson.databind.node.ObjectNode;

/**
 * One event of the contract's stream: its {@code type} and the whole JSON object sent as the
 * frame's {@code data} (which repeats the type, as the contract requires).
 */
public record StreamEvent(String type, ObjectNode json) {
  public StreamEvent {
    if (!type.equals(json.path("type").asString(null))) {
      throw new IllegalArgumentException("event JSON must carry type " + type);
    }
  }

  /** Whether nothing may follow this event in a stream. */
  public boolean endsStream() {
    return type.equals(StreamEvents.STREAM_COMPLETED) || type.equals(StreamEvents.STREAM_ERROR);
  }
}
