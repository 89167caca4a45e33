package dev.threadline.operator.worker.mcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads a {@code text/event-stream} body (the HTML server-sent events format) an event at a time:
 * {@code event:} and {@code data:} fields (several data lines joined by newlines), an event ends at
 * a blank line, comments and other fields are skipped.
 */
final class SseEvents {
  private SseEvents() {}

  /** One event; {@code type} is {@code message} when the server named none. */
  record Event(String type, String data) {}

  /** Hands every event of {@code body} to {@code events} until the stream ends. */
  static void read(InputStream body, Consumer<Event> events) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    String type = null;
    StringBuilder data = null;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (line.isEmpty()) {
        if (data != null) {
          events.accept(new Event(type == null ? "message" : type, data.toString()));
        }
        type = null;
        data = null;
        continue;
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (field) {
        case "event" -> type = value;
        case "data" ->
            data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
        default -> {} // comments (an empty field), id, retry
      }
    }
  }
}
