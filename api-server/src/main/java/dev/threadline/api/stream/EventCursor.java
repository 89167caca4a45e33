package dev.threadline.api.stream;

import dev.threadline.api.errors.ApiException;
import dev.threadline.crds.common.ResourceIds;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A position in one run's stream, sent as every event frame's SSE {@code id}: {@code
 * <runId>:<seq>:<index>}, e.g. {@code run_abc-1:12:0} is the first contract event made from the
 * run's log entry 12. Derived only from the event's number in the history store (numbered once,
 * never changed), so the same event has the same id on every replica, after restarts and on every
 * reconnect. Position {@code seq = 0} comes before the log: index 0 is {@code thread.created}, and
 * terminal events built from the status of a run whose log is empty follow it.
 *
 * <p>The run id is part of the cursor so that a reconnect knows its run (and its thread) without
 * any other state, even on {@code POST /v1/threads}, whose path names no thread.
 */
public record EventCursor(String runId, long seq, int index) {
  private static final Pattern FORMAT =
      Pattern.compile("(run_[a-z0-9][-a-z0-9]*):(\\d{1,18}):(\\d{1,9})");
  static final String EXAMPLE = "run_abc-1:12:0";

  public EventCursor {
    if (seq < 0 || index < 0) {
      throw new IllegalArgumentException("a cursor's seq and index are never negative");
    }
  }

  /**
   * Parses a cursor a client sent; a malformed one is a 400 that names where it came from ({@code
   * source}: {@code Last-Event-ID} or {@code after}).
   */
  public static EventCursor parse(String text, String source) {
    Matcher matcher = FORMAT.matcher(text == null ? "" : text.strip());
    if (!matcher.matches() || ResourceIds.toName(matcher.group(1), "run").isEmpty()) {
      throw ApiException.badRequest(
          source,
          "is not a stream event id: expected <runId>:<seq>:<index>, e.g. "
              + EXAMPLE
              + " (send back the id of the last event received)");
    }
    return new EventCursor(
        matcher.group(1), Long.parseLong(matcher.group(2)), Integer.parseInt(matcher.group(3)));
  }

  /**
   * The cursor a request resumes after: the {@code Last-Event-ID} header (what EventSource sends on
   * its own reconnects, so it wins), else the {@code after} query parameter; empty when neither.
   */
  public static Optional<EventCursor> of(String lastEventId, String after) {
    if (lastEventId != null && !lastEventId.isBlank()) {
      return Optional.of(parse(lastEventId, StreamHeaders.LAST_EVENT_ID));
    }
    if (after != null && !after.isBlank()) {
      return Optional.of(parse(after, "after"));
    }
    return Optional.empty();
  }

  /** The Kubernetes name of the run, e.g. {@code run-abc-1}. */
  public String runName() {
    return ResourceIds.toName(runId).orElseThrow();
  }

  /** Whether this position comes later in the same run's stream than {@code other}. */
  boolean isAfter(EventCursor other) {
    return seq != other.seq ? seq > other.seq : index > other.index;
  }

  @Override
  public String toString() {
    return runId + ":" + seq + ":" + index;
  }
}
