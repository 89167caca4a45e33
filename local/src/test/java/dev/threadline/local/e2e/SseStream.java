package dev.threadline.local.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** A Server-Sent Events response read frame by frame: each frame's id and its JSON data. */
final class SseStream implements AutoCloseable {
  record Frame(String id, JsonNode data) {
    String type() {
      return data.path("type").asText();
    }
  }

  private final HttpResponse<Stream<String>> response;
  private final Iterator<String> lines;
  private final List<Frame> frames = new ArrayList<>();

  SseStream(HttpResponse<Stream<String>> response) {
    this.response = response;
    this.lines = response.body().iterator();
  }

  HttpResponse<Stream<String>> response() {
    return response;
  }

  /** Reads frames until one matches (and returns it), or the stream ends (null). */
  Frame readUntil(Predicate<Frame> wanted) {
    String id = null;
    StringBuilder data = new StringBuilder();
    while (lines.hasNext()) {
      String line = lines.next();
      if (line.startsWith("id:")) {
        id = line.substring(3).strip();
      } else if (line.startsWith("data:")) {
        data.append(line.substring(5).strip());
      } else if (line.isEmpty() && !data.isEmpty()) {
        Frame frame = new Frame(id, Serialization.unmarshal(data.toString(), JsonNode.class));
        frames.add(frame);
        id = null;
        data.setLength(0);
        if (wanted.test(frame)) {
          return frame;
        }
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
    response.body().close();
  }
}
