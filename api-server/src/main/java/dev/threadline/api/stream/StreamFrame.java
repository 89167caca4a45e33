package dev.threadline.api.stream;

/**
 * An event as it goes on the wire: with its cursor (the SSE {@code id}), or without one for
 * stream-level notices ({@code stream.error}) that are not part of the run's log, so that a
 * client's last event id stays on the last real event and a reconnect resumes from there.
 */
public record StreamFrame(EventCursor cursor, StreamEvent event) {
  static StreamFrame unnumbered(StreamEvent event) {
    return new StreamFrame(null, event);
  }
}
