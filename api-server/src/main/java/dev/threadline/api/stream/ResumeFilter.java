package dev.threadline.api.stream;

import java.util.Optional;

/** Lets through the frames that come after a resume cursor (all, without one). */
final class ResumeFilter {
  private final Optional<EventCursor> after;

  ResumeFilter(Optional<EventCursor> after) {
    this.after = after;
  }

  boolean wants(StreamFrame frame) {
    return after.isEmpty() || frame.cursor() == null || frame.cursor().isAfter(after.get());
  }
}
