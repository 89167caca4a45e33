package dev.threadline.api.stream;

/** Request headers that steer streams. */
public final class StreamHeaders {
  /** The SSE reconnect header: the id of the last event the client received. */
  public static final String LAST_EVENT_ID = "Last-Event-ID";

  private StreamHeaders() {}
}
