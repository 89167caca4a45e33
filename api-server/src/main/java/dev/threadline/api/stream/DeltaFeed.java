package dev.threadline.api.stream;

import dev.threadline.core.deltas.DeltaWire;
import dev.threadline.crds.run.Run;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The deltas of one run, read from the live channel its producer names in {@code
 * status.deltaChannel} (the run reconciler for a direct answer, then a worker on the computer path:
 * each a session, read in turn). A reader thread queues the deltas and wakes the stream; the stream
 * writes them at once and holds a durable log entry while the session may still owe deltas that
 * precede it ({@link #holds}). Nothing here is ever written to the Run.
 */
final class DeltaFeed implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DeltaFeed.class);

  /** How long a durable entry may wait for the deltas before it; then the feed is given up. */
  static final Duration HOLD_LIMIT = Duration.ofSeconds(3);

  private final HttpClient http;
  private final String token;
  private final JsonMapper json;
  private final Runnable wake;
  private final Deque<String> channels = new ArrayDeque<>();
  private final List<StreamEvent> ready = new ArrayList<>();
  private String lastChannel;
  private Thread reader;
  private boolean open;
  private long markedSeq;
  private boolean abandoned;

  DeltaFeed(HttpClient http, String token, JsonMapper json, Runnable wake) {
    this.http = http;
    this.token = token;
    this.json = json;
    this.wake = wake;
  }

  /** Starts reading the run's channel when it names a new one. */
  synchronized void follow(Run run) {
    if (abandoned
        || token.isEmpty()
        || run.getStatus() == null
        || !Boolean.TRUE.equals(run.getSpec().getStreamTokens())) {
      return;
    }
    String channel = run.getStatus().getDeltaChannel();
    if (channel == null || channel.equals(lastChannel) || !acceptable(channel)) {
      return;
    }
    lastChannel = channel;
    channels.add(channel);
    open = true; // from now until the session marks or ends, deltas may precede any new entry
    if (reader == null) {
      reader = Thread.ofVirtual().name("deltas-" + run.getMetadata().getName()).start(this::read);
    } else {
      notifyAll();
    }
  }

  /** The deltas received since the last call, in order. */
  synchronized List<StreamEvent> take() {
    List<StreamEvent> taken = List.copyOf(ready);
    ready.clear();
    return taken;
  }

  /** Whether the log entry {@code seq} must wait: a session may still send deltas before it. */
  synchronized boolean holds(long seq) {
    return !abandoned && open && markedSeq < seq;
  }

  /** Gives up on the deltas (they were too late): nothing is held or sent from now on. */
  synchronized void abandon() {
    abandoned = true;
    ready.clear();
    closeReader();
  }

  @Override
  public synchronized void close() {
    abandoned = true;
    closeReader();
  }

  private void closeReader() {
    if (reader != null) {
      reader.interrupt();
    }
    notifyAll();
  }

  private void read() {
    while (true) {
      String channel;
      synchronized (this) {
        while (channels.isEmpty() && !abandoned) {
          open = false;
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (abandoned) {
          return;
        }
        channel = channels.poll();
      }
      readSession(channel);
      synchronized (this) {
        if (channels.isEmpty()) {
          open = false; // every session read to its end: nothing can precede the next entry
        }
      }
      wake.run();
    }
  }

  private void readSession(String channel) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(channel))
            .header("Authorization", "Bearer " + token)
            .GET()
            .build();
    try {
      HttpResponse<InputStream> response =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (BufferedReader lines =
          new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
        if (response.statusCode() != 200) {
          log.debug("Delta channel answered {}; durable events only", response.statusCode());
          return;
        }
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (!line.isBlank()) {
            accept(line);
          }
        }
      }
    } catch (IOException e) {
      log.debug("Delta channel broke off ({}); durable events only", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void accept(String line) {
    JsonNode message;
    try {
      message = json.readTree(line);
    } catch (JacksonException e) {
      return;
    }
    String type = message.path("type").asString("");
    synchronized (this) {
      if (abandoned) {
        return;
      }
      if (type.equals(DeltaWire.WRITTEN)) {
        markedSeq = Math.max(markedSeq, message.path("seq").asLong(0));
        open = false;
      } else if (type.equals(DeltaWire.TEXT_DELTA) || type.equals(DeltaWire.OUTPUT_DELTA)) {
        ready.add(delta(type, message));
        open = true;
      } else {
        return;
      }
    }
    wake.run();
  }

  /** Only the fields a delta has, whatever else the line carried. */
  private static StreamEvent delta(String type, JsonNode message) {
    ObjectNode event =
        StreamEvents.NODES
            .objectNode()
            .put("type", type)
            .put("delta", message.path("delta").asString(""))
            .put("item_id", message.path("item_id").asString(""));
    return new StreamEvent(type, event);
  }

  /** Only the operator's channel path over HTTP(S): the status is the operator's to write. */
  private static boolean acceptable(String channel) {
    Optional<URI> uri;
    try {
      uri = Optional.of(URI.create(channel));
    } catch (IllegalArgumentException e) {
      uri = Optional.empty();
    }
    return uri.filter(u -> "http".equals(u.getScheme()) || "https".equals(u.getScheme()))
        .filter(u -> u.getRawPath() != null && u.getRawPath().startsWith(DeltaWire.PATH))
        .filter(u -> u.getRawQuery() == null && u.getRawUserInfo() == null)
        .isPresent();
  }
}
