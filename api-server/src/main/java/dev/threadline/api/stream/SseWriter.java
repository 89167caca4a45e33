package dev.threadline.api.stream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes Server-Sent Events frames: {@code id: <cursor>} (when the event has one), {@code data:
 * <json>} and a blank line, and comment lines as keepalives. Each write is flushed at once, so a
 * client sees every event as it happens and a gone client shows up as an {@link IOException}.
 */
final class SseWriter {
  static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.UTF_8);

  private final OutputStream out;
  private final JsonMapper json;

  SseWriter(OutputStream out, JsonMapper json) {
    this.out = out;
    this.json = json;
  }

  /** Sends the status line and headers now, before any event exists. */
  void open() throws IOException {
    out.flush();
  }

  void write(StreamFrame frame) throws IOException {
    StringBuilder text = new StringBuilder();
    if (frame.cursor() != null) {
      text.append("id: ").append(frame.cursor()).append('\n');
    }
    // Jackson escapes line breaks inside strings: the JSON is always one line, as SSE requires.
    text.append("data: ").append(json.writeValueAsString(frame.event().json())).append("\n\n");
    out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** A comment line: clients ignore it, people reading the stream see it. */
  void comment(String text) throws IOException {
    out.write((": " + text.replace('\n', ' ') + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  void keepalive() throws IOException {
    out.write(KEEPALIVE);
    out.flush();
  }
}
