package dev.threadline.local.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A Server-Sent Events response read frame by frame (by {@link SseFrames}): each frame's id and its
 * JSON data.
 */
final class SseStream implements AutoCloseable {
  record Frame(String id, JsonNode data) {
    String type() {
      return data.path("type").asText();
    }
  }

  private final HttpResponse<Stream<String>> response;
  private final SseFrames events;
  private final List<Frame> frames = new ArrayList<>();

  /** {@code check} sees each frame's data as it is read. */
  SseStream(HttpResponse<Stream<String>> response, Consumer<String> check) {
    this.response = response;
    this.events = new SseFrames(response.body(), check);
  }

  HttpResponse<Stream<String>> response() {
    return response;
  }

  /** Reads frames until one matches (and returns it), or the stream ends (null). */
  Frame readUntil(Predicate<Frame> wanted) {
    for (List<SseFrames.Frame> next = events.next(1); !next.isEmpty(); next = events.next(1)) {
      Frame frame = new Frame(next.getFirst().id(), next.getFirst().json());
      frames.add(frame);
      if (wanted.test(frame)) {
        return frame;
      }
    }
    return null;
  }

  /** Reads to the end of the stream. */
  List<Frame> readAll() {
    readUntil(frame -> false);
    return frames;
  }

  List<Frame> frames() {
    return frames;
  }

  List<String> types() {
    return frames.stream().map(Frame::type).toList();
  }

  @Override
  public void close() {
    events.close();
  }
}
