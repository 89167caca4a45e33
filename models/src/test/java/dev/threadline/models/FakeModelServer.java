package dev.threadline.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A model endpoint on 127.0.0.1 for tests: answers queued responses in order and records every
 * request it received, so a test can assert exactly what a provider sent.
 */
public final class FakeModelServer implements AutoCloseable {

  /** What the server received. */
  public record Received(
      String method, String path, Map<String, List<String>> headers, JsonNode body) {
    /** The first value of a header, case-insensitively (HttpServer capitalises names). */
    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  /** A JSON body, or (when {@code events} is not null) SSE events sent {@code between} apart. */
  private record Answer(
      int status, String body, Duration delay, List<String> events, Duration between) {
    Answer(int status, String body, Duration delay) {
      this(status, body, delay, null, Duration.ZERO);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
  private final List<Received> received = new CopyOnWriteArrayList<>();

  public FakeModelServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** http://127.0.0.1:port, no trailing slash. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public FakeModelServer answer(int status, String body) {
    answers.add(new Answer(status, body, Duration.ZERO));
    return this;
  }

  public FakeModelServer answerAfter(Duration delay, int status, String body) {
    answers.add(new Answer(status, body, delay));
    return this;
  }

  /**
   * Queues a streamed answer: after {@code firstDelay}, each of {@code events} (the text of one SSE
   * event, e.g. {@code "data: {...}"}) flushed on its own, {@code between} apart.
   */
  public FakeModelServer answerStream(Duration firstDelay, Duration between, List<String> events) {
    answers.add(new Answer(200, "", firstDelay, List.copyOf(events), between));
    return this;
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  /** The only request received; fails when there were none or several (the SDKs must not retry). */
  public Received onlyRequest() {
    if (received.size() != 1) {
      throw new AssertionError("expected exactly one request, got " + received.size());
    }
    return received.get(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] raw = exchange.getRequestBody().readAllBytes();
      JsonNode body = raw.length == 0 ? null : JSON.readTree(raw);
      received.add(
          new Received(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              Map.copyOf(exchange.getRequestHeaders()),
              body));
      Answer answer = answers.poll();
      if (answer == null) {
        answer = new Answer(500, "{\"error\":{\"message\":\"no answer queued\"}}", Duration.ZERO);
      }
      if (!answer.delay().isZero()) {
        Thread.sleep(answer.delay().toMillis());
      }
      if (answer.events() != null) {
        stream(exchange, answer);
        return;
      }
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException clientGone) {
      // A client that timed out closed the connection: nothing left to answer.
    }
  }

  private static void stream(HttpExchange exchange, Answer answer)
      throws IOException, InterruptedException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      for (int i = 0; i < answer.events().size(); i++) {
        if (i > 0 && !answer.between().isZero()) {
          Thread.sleep(answer.between().toMillis());
        }
        out.write((answer.events().get(i) + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
