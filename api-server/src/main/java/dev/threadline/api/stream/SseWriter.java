package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes Server-Sent Events frames: {@code id: <cursor>} (when the event has one), {@code data:
 * <json>} and a blank line, and comment lines as keepalives. Frames are buffered until {@link
 * #flush}: the events one change of the run brings (a direct answer's three) leave in one write
 * instead of one each. Comments and keepalives are flushed at once, so a gone client shows up as an
 * {@link IOException}.
 */
final class SseWriter implements StreamSink {
  static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ID = "id: ".getBytes(StandardCharsets.UTF_8);
  private static final byte[] DATA = "\ndata: ".getBytes(StandardCharsets.UTF_8);
  private static final byte[] DATA_ONLY = "data: ".getBytes(StandardCharsets.UTF_8);
  private static final byte[] END = "\n\n".getBytes(StandardCharsets.UTF_8);

  private final OutputStream out;
  private final JsonMapper json;

  /** Whether frames were written since the last flush. */
  private boolean pending;

  SseWriter(OutputStream out, JsonMapper json) {
    this.out = out;
    this.json = json;
  }

  @Override
  public void changed(Run run) {
    // The run's versions show in the events they bring.
  }

  /** Buffers one frame; {@link #flush} sends it. */
  @Override
  public void write(StreamFrame frame) throws IOException {
    if (frame.cursor() != null) {
      out.write(ID);
      out.write(frame.cursor().toString().getBytes(StandardCharsets.UTF_8));
      out.write(DATA);
    } else {
      out.write(DATA_ONLY);
    }
    // Jackson escapes line breaks inside strings: the JSON is always one line, as SSE requires.
    out.write(json.writeValueAsBytes(frame.event().json()));
    out.write(END);
    pending = true;
  }

  /**
   * Sends what was written; the first call also sends the status line and headers, even before any
   * event exists.
   */
  @Override
  public void flush() throws IOException {
    out.flush();
    pending = false;
  }

  /** Sends what was written, if anything. */
  @Override
  public void flushPending() throws IOException {
    if (pending) {
      flush();
    }
  }

  /** A comment line: clients ignore it, people reading the stream see it. */
  @Override
  public void comment(String text) throws IOException {
    out.write((": " + text.replace('\n', ' ') + "\n\n").getBytes(StandardCharsets.UTF_8));
    flush();
  }

  @Override
  public void keepalive() throws IOException {
    out.write(KEEPALIVE);
    flush();
  }

  @Override
  public String resumeHint() {
    return "reconnect with Last-Event-ID to resume";
  }
}
