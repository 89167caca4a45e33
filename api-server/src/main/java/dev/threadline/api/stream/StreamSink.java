package dev.threadline.api.stream;

import java.io.IOException;

/**
 * Where {@link RunStreams} sends a followed run: Server-Sent Events ({@link SseWriter}) or another
 * protocol's notifications (the MCP server's progress). An {@link IOException} means the receiver
 * went away: the stream stops, the run goes on.
 */
public interface StreamSink {
  /** Buffers one frame; {@link #flush} sends it. */
  void write(StreamFrame frame) throws IOException;

  /** Sends what was written, even if nothing was (the start of a stream). */
  void flush() throws IOException;

  /** Sends what was written, if anything. */
  void flushPending() throws IOException;

  /** A note for people reading the stream, not an event. */
  void comment(String text) throws IOException;

  /** Nothing happened for a while: shows a gone receiver. */
  void keepalive() throws IOException;
}
