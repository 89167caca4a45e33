package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;
import java.io.IOException;

/**
 * Where {@link RunStreams} sends a followed run: Server-Sent Events ({@link SseWriter}) or another
 * protocol's (the MCP server's progress, an A2A task's stream). An {@link IOException} means the
 * receiver went away: the stream stops, the run goes on.
 */
public interface StreamSink {
  /** A new version of the run; the events it brings are written after it. */
  void changed(Run run) throws IOException;

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

  /**
   * How this receiver follows a run on after its stream ended early (a timeout, a shutdown): the
   * end of the stream.error notice's message.
   */
  String resumeHint();
}
