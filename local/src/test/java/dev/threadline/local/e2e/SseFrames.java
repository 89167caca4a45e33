package dev.threadline.local.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads Server-Sent Events frames ({@code id:}, {@code data:}) off a response's lines, as a client
 * would.
 */
final class SseFrames implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One event; {@code id} is null for frames without one. */
  record Frame(String id, String data) {
    String type() {
      return json().path("type").asText();
    }

    JsonNode json() {
      try {
        return JSON.readTree(data);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private final Stream<String> lines;
  private final Iterator<String> iterator;
  private final List<String> comments = new ArrayList<>();

  SseFrames(Stream<String> lines) {
    this.lines = lines;
    this.iterator = lines.iterator();
  }

  /** Up to {@code count} events; fewer when the stream ends first. */
  List<Frame> next(int count) {
    List<Frame> frames = new ArrayList<>();
    String id = null;
    String data = null;
    while (frames.size() < count && iterator.hasNext()) {
      String line = iterator.next();
      if (line.isEmpty()) {
        if (data != null) {
          frames.add(new Frame(id, data));
        }
        id = null;
        data = null;
      } else if (line.startsWith("id: ")) {
        id = line.substring(4);
      } else if (line.startsWith("data: ")) {
        data = line.substring(6);
      } else if (line.startsWith(": ")) {
        comments.add(line.substring(2));
      }
    }
    return frames;
  }

  /** Every remaining event, to the end of the stream. */
  List<Frame> rest() {
    return next(Integer.MAX_VALUE);
  }

  /** The comment lines read so far (keepalives and notices), without their colon. */
  List<String> comments() {
    return List.copyOf(comments);
  }

  /** Drops the connection. */
  @Override
  public void close() {
    lines.close();
  }
}
