package dev.threadline.api.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Posts a request and reads the answer as Server-Sent Events, frame by frame, as a client that
 * parses {@code id: } and {@code data: } lines would. A reader thread parses; tests wait on a queue
 * with a timeout.
 */
public final class SseClient {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Duration FRAME_TIMEOUT = Duration.ofSeconds(15);

  private final String baseUrl;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  public SseClient(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** Sends the POST; returns once the status line and headers have arrived. */
  public Stream post(String path, String key, String json) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build();
    try {
      return new Stream(http.send(request, HttpResponse.BodyHandlers.ofInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Opens a GET stream (e.g. a resume) with extra headers such as {@code Last-Event-ID}. */
  public Stream get(String path, String key, java.util.Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("Authorization", "Bearer " + key)
            .header("Accept", "text/event-stream")
            .GET();
    headers.forEach(request::header);
    return send(request.build());
  }

  /** Sends a POST with extra headers (e.g. {@code Idempotency-Key}, {@code Last-Event-ID}). */
  public Stream post(String path, String key, String json, java.util.Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(json));
    headers.forEach(request::header);
    return send(request.build());
  }

  private Stream send(HttpRequest request) {
    try {
      return new Stream(http.send(request, HttpResponse.BodyHandlers.ofInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** One frame: an event ({@code id}, {@code data}) or a comment line. */
  public record Frame(String id, String data, String comment) {
    public boolean isComment() {
      return comment != null;
    }

    public JsonNode json() {
      return JSON.readTree(data);
    }

    public String type() {
      return json().get("type").asString();
    }
  }

  /** An open response. */
  public static final class Stream implements AutoCloseable {
    private static final Frame END = new Frame(null, null, null);

    private final HttpResponse<InputStream> response;
    private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    private final StringBuilder raw = new StringBuilder();

    Stream(HttpResponse<InputStream> response) {
      this.response = response;
      Thread.ofVirtual().name("sse-reader").start(this::read);
    }

    public int status() {
      return response.statusCode();
    }

    public String header(String name) {
      return response.headers().firstValue(name).orElse(null);
    }

    /** The next frame (comments included); fails after a generous timeout. */
    public Frame next() {
      try {
        Frame frame = frames.poll(FRAME_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (frame == null) {
          throw new AssertionError("No frame within " + FRAME_TIMEOUT + "; so far: " + raw());
        }
        if (frame == END) {
          throw new AssertionError("The stream ended; so far: " + raw());
        }
        return frame;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** The next event frame, skipping comments. */
    public Frame nextEvent() {
      Frame frame = next();
      while (frame.isComment()) {
        frame = next();
      }
      return frame;
    }

    /** Every event frame up to the end of the stream. */
    public List<Frame> remainingEvents() {
      List<Frame> events = new ArrayList<>();
      try {
        while (true) {
          Frame frame = frames.poll(FRAME_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
          if (frame == null) {
            throw new AssertionError(
                "The stream did not end within " + FRAME_TIMEOUT + "; so far: " + raw());
          }
          if (frame == END) {
            return events;
          }
          if (!frame.isComment()) {
            events.add(frame);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** The whole body, once the server has ended it (e.g. a JSON error). */
    public String body() {
      remainingEvents();
      return raw();
    }

    /** Everything read so far, as it came over the wire. */
    public synchronized String raw() {
      return raw.toString();
    }

    /** Drops the connection, as a client that goes away does. */
    @Override
    public void close() {
      try {
        response.body().close();
      } catch (IOException ignored) {
        // gone either way
      }
    }

    private void read() {
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
        String id = null;
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
          synchronized (this) {
            raw.append(line).append('\n');
          }
          if (line.isEmpty()) {
            if (data != null) {
              frames.add(new Frame(id, data.toString(), null));
            }
            id = null;
            data = null;
          } else if (line.startsWith(":")) {
            frames.add(new Frame(null, null, line.substring(1).strip()));
          } else if (line.startsWith("id: ")) {
            id = line.substring(4);
          } else if (line.startsWith("data: ")) {
            data =
                data == null
                    ? new StringBuilder(line.substring(6))
                    : data.append('\n').append(line.substring(6));
          }
        }
      } catch (IOException closed) {
        // the test closed the stream, or the server ended it
      } finally {
        frames.add(END);
      }
    }
  }
}
