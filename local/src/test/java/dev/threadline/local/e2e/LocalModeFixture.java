package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.local.LocalMode;
import dev.threadline.local.LocalSettings;
import dev.threadline.operator.config.OperatorSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The local mode as a test uses it: random ports, a fresh data folder and two users, alice and bob,
 * with known keys; and a small HTTP client for its REST API.
 */
public final class LocalModeFixture implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
  public static final String ALICE_KEY = "tl_test_alice_0123456789";
  public static final String BOB_KEY = "tl_test_bob_0123456789";

  private final Supplier<LocalMode> starter;
  private LocalMode local;

  /**
   * The REST API of a local mode that runs elsewhere ({@link #client}); null for {@link #local}'s.
   */
  private String apiUrl;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private LocalModeFixture(Supplier<LocalMode> starter) {
    this.starter = starter;
  }

  private LocalModeFixture(LocalMode local) {
    this(() -> local);
    this.local = local;
  }

  /**
   * One local mode for a test class, started before its first test and stopped after its last:
   * {@code @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();}
   */
  public static LocalModeFixture perClass() {
    return perClass(UnaryOperator.identity());
  }

  /** {@link #perClass()} with the operator's settings adjusted. */
  public static LocalModeFixture perClass(UnaryOperator<OperatorSettings> operatorSettings) {
    return perClass(Map.of(), operatorSettings);
  }

  /** {@link #perClass()} with variables added to the environment it reads at start-up. */
  public static LocalModeFixture perClass(
      Map<String, String> variables, UnaryOperator<OperatorSettings> operatorSettings) {
    return new LocalModeFixture(() -> start(variables, operatorSettings).local);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    local = starter.get();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /**
   * A client of the REST API of a local mode that runs elsewhere, e.g. in another process, at
   * {@code apiUrl}: its requests only; {@link #local()} is null and {@link #close()} stops nothing.
   */
  static LocalModeFixture client(String apiUrl) {
    LocalModeFixture client = new LocalModeFixture(() -> null);
    client.apiUrl = apiUrl;
    return client;
  }

  public static LocalModeFixture start() {
    return start(UnaryOperator.identity());
  }

  /** With the operator's settings adjusted (e.g. a short agent deadline). */
  public static LocalModeFixture start(UnaryOperator<OperatorSettings> operatorSettings) {
    return start(Map.of(), operatorSettings);
  }

  /**
   * With variables added to the environment the local mode reads at start-up (e.g. {@code
   * THREADLINE_MODEL_API_KEY}), as if the launcher had been started with them.
   */
  public static LocalModeFixture start(
      Map<String, String> variables, UnaryOperator<OperatorSettings> operatorSettings) {
    try {
      return start(Files.createTempDirectory("threadline-e2e"), variables, operatorSettings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** On a given data folder: a second start on the same folder is a restart. */
  public static LocalModeFixture start(
      Path dataDir, UnaryOperator<OperatorSettings> operatorSettings) {
    return start(dataDir, Map.of(), operatorSettings);
  }

  private static LocalModeFixture start(
      Path dataDir,
      Map<String, String> variables,
      UnaryOperator<OperatorSettings> operatorSettings) {
    Map<String, String> environment = new HashMap<>(System.getenv());
    environment.putAll(variables);
    LocalSettings settings =
        LocalSettings.fromEnvironment(Map.of())
            .withPorts(0, 0)
            .withDataDir(dataDir)
            .withApiKeys(Map.of(ALICE_KEY, "alice", BOB_KEY, "bob"));
    return new LocalModeFixture(LocalMode.start(settings, environment, operatorSettings));
  }

  public LocalMode local() {
    return local;
  }

  public HttpResponse<String> get(String key, String path) {
    return send(request(key, path).GET().build());
  }

  public HttpResponse<String> post(String key, String path, String json) {
    return send(
        request(key, path)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  public HttpResponse<String> delete(String key, String path) {
    return send(request(key, path).DELETE().build());
  }

  /** POSTs JSON and reads the answer as a stream of Server-Sent Events. */
  SseStream stream(String key, String path, String json) {
    return new SseStream(
        send(
            request(key, path)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofLines()),
        OpenApiContract.INSTANCE::checkEvent);
  }

  /**
   * Posts {@code message} on a new thread as alice and reads its stream to the end; returns the
   * name of the thread's Run.
   */
  String runToTheEnd(String message) {
    try (SseStream stream =
        stream(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"" + message + "\"}]}")) {
      List<SseStream.Frame> frames = stream.readAll();
      assertThat(stream.types()).last().isEqualTo("stream.completed");
      String threadId = frames.get(0).data().at("/thread/id").asText();
      return ThreadRuns.runName(ResourceIds.toName(threadId).orElseThrow(), 1);
    }
  }

  /** A Prometheus scrape (no key) of {@code url}, asserted to be a 200. */
  String scrape(String url) {
    HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url)).build());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /**
   * Sends {@code request} asking for Server-Sent Events (90 s to the end of the stream) and reads
   * the answer frame by frame; asserts that it is a 200.
   */
  SseFrames frames(HttpRequest.Builder request) {
    HttpResponse<Stream<String>> response =
        send(
            request.header("Accept", "text/event-stream").timeout(Duration.ofSeconds(90)).build(),
            HttpResponse.BodyHandlers.ofLines());
    assertThat(response.statusCode()).isEqualTo(200);
    return new SseFrames(response.body(), OpenApiContract.INSTANCE::checkEvent);
  }

  public HttpRequest.Builder request(String key, String path) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(apiUrl() + path)).timeout(Duration.ofSeconds(30));
    if (key != null) {
      builder.header("Authorization", "Bearer " + key);
    }
    return builder;
  }

  private String apiUrl() {
    return apiUrl != null ? apiUrl : local.apiUrl();
  }

  /**
   * Sends {@code request}; an answer of the REST API is checked against the OpenAPI document
   * ({@link OpenApiContract}): its status, media type and, when read as text, its JSON body.
   */
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    try {
      HttpResponse<T> response = http.send(request, handler);
      if (request.uri().toString().startsWith(apiUrl() + "/")) {
        OpenApiContract.INSTANCE.checkResponse(
            request.method(),
            request.uri(),
            response.statusCode(),
            response.headers().firstValue("Content-Type"),
            response.body() instanceof String text ? text : null);
      }
      return response;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<String> send(HttpRequest request) {
    return send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() {
    if (local != null) {
      local.close();
    }
  }
}
