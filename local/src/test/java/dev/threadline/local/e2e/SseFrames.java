package dev.threadline.local.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
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

  private final Consumer<String> check;

  /** {@code check} sees each frame's data as it is read (and may fail the test). */
  SseFrames(Stream<String> lines, Consumer<String> check) {
    this.lines = lines;
    this.iterator = lines.iterator();
    this.check = check;
  }

  /**
   * Up to {@code count} events; fewer when the stream ends first. Lines are read as the SSE spec
   * says: a field's value is what follows its colon, less one leading space; data lines join with
   * newlines; a line that starts with a colon is a comment.
   */
  List<Frame> next(int count) {
    List<Frame> frames = new ArrayList<>();
    String id = null;
    StringBuilder data = null;
    while (frames.size() < count && iterator.hasNext()) {
      String line = iterator.next();
      if (line.isEmpty()) {
        if (data != null) {
          check.accept(data.toString());
          frames.add(new Frame(id, data.toString()));
        }
        id = null;
        data = null;
      } else if (line.startsWith(":")) {
        comments.add(value(line, 0));
      } else if (line.startsWith("id:")) {
        id = value(line, 2);
      } else if (line.startsWith("data:")) {
        data = data == null ? new StringBuilder() : data.append('\n');
        data.append(value(line, 4));
      }
    }
    return frames;
  }

  /** What follows the colon at {@code colon}, less one leading space. */
  private static String value(String line, int colon) {
    String value = line.substring(colon + 1);
    return value.startsWith(" ") ? value.substring(1) : value;
  }

  /** Every remaining event, to the end of the stream. */
  List<Frame> rest() {
    return next(Integer.MAX_VALUE);
  }

  /** Each frame as {@code "<id> <data>"}: what a client saw, to compare two streams with. */
  static List<String> describe(List<Frame> frames) {
    return frames.stream().map(frame -> frame.id() + " " + frame.data()).toList();
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
