package dev.threadline.api.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.ApiServerSettings;
import dev.threadline.api.RunningApiServer;
import dev.threadline.api.ThreadlineApiServer;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP edge against hostile clients, over real sockets, on a second API server (over the shared
 * mock cluster) as small as a shared machine allows: 8 worker threads, a 2 s body deadline, 3
 * requests and 2 streams per key, 6 requests per address. Slow bodies trickle a byte every 300 ms,
 * so only the deadline ends them.
 */
class EdgeBoundsMockServerTest {
  private static final Map<String, String> SETTINGS =
      Map.of(
          "server.tomcat.threads.max", "8",
          "threadline.api.body-timeout", "2s",
          "threadline.api.max-requests-per-key", "3",
          "threadline.api.max-streams-per-key", "2",
          "threadline.api.max-requests-per-address", "6");
  private static final int DECLARED = 100_000;
  private static final long TRICKLE_MS = 300;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static SharedApiServer shared;
  private static RunningApiServer server;
  private static ApiClient api;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final List<RawConnection> connections = new ArrayList<>();

  @BeforeAll
  static void start() {
    shared = SharedApiServer.get();
    FakeOperator.on(shared);
    SETTINGS.forEach(System::setProperty);
    try {
      server =
          ThreadlineApiServer.start(
              shared.client(), ApiServerSettings.loopback(SharedApiServer.SYSTEM_NAMESPACE));
    } finally {
      SETTINGS.keySet().forEach(System::clearProperty);
    }
    api = new ApiClient(server.baseUrl());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @AfterEach
  void closeConnections() {
    connections.forEach(RawConnection::close);
  }

  @Test
  void slowBodiesFromManyConnectionsWithAndWithoutAKeyDoNotStallAnotherUser() {
    TestUser attacker = user("attacker");
    TestUser victim = user("victim");

    List<RawConnection> keyed = new ArrayList<>();
    List<RawConnection> anonymous = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      keyed.add(slowBody(attacker.key()));
      anonymous.add(slowBody(null));
    }
    // Every request without a key is answered on its headers; all but the key's cap are refused.
    for (RawConnection connection : anonymous) {
      assertThat(connection.head()).succeedsWithin(Duration.ofSeconds(20));
      assertThat(connection.status()).isIn(401, 429);
    }
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> keyed.stream().filter(c -> c.head().isDone()).count() >= 17);

    for (int i = 0; i < 5; i++) {
      HttpResponse<String> answer = victimGet(victim, "/v1/agents");
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    // The few that were let in are cut off by the body deadline, with a 408 and a closed socket.
    for (RawConnection connection : keyed) {
      assertThat(connection.closed()).succeedsWithin(Duration.ofSeconds(20));
      assertThat(connection.status()).isIn(408, 429);
      assertThat(errorOf(connection).get("error").asString())
          .isIn("Request Timeout", "Too Many Requests");
    }
    assertThat(keyed.stream().filter(c -> c.status() == 408).count()).isBetween(1L, 3L);
    for (RawConnection connection : anonymous) {
      assertThat(connection.closed()).succeedsWithin(Duration.ofSeconds(20));
    }
  }

  @Test
  void aRefusedRequestIsAnsweredWithoutReadingItsBodyAndTheConnectionCloses() {
    TestUser user = user("refused");
    RawConnection noKey = slowBody(null);
    RawConnection tooLarge =
        track(
            RawConnection.open(
                server.baseUrl(),
                "POST /v1/agents HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer "
                    + user.key()
                    + "\r\nContent-Length: 50000000"));

    // Nothing of either body is sent: the server must not wait for it.
    assertThat(noKey.closed()).succeedsWithin(Duration.ofSeconds(10));
    assertThat(noKey.status()).isEqualTo(401);
    assertThat(noKey.header("Connection")).isEqualToIgnoringCase("close");
    assertThat(errorOf(noKey).get("message").asString()).isEqualTo("Missing or invalid API key");

    assertThat(tooLarge.closed()).succeedsWithin(Duration.ofSeconds(10));
    assertThat(tooLarge.status()).isEqualTo(413);
    assertThat(tooLarge.header("Connection")).isEqualToIgnoringCase("close");
    assertThat(errorOf(tooLarge).get("error").asString()).isEqualTo("Payload Too Large");
  }

  @Test
  void concurrentRequestsPerKeyAndPerAddressAreCappedWith429() {
    TestUser first = user("busy");
    TestUser second = user("busier");
    TestUser third = user("bystander");
    List<RawConnection> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      held.add(slowBody(first.key(), "/v1/agents"));
    }
    // Once the three are in progress, the key's next request is refused.
    awaitRefused(first, "At most 3 requests of one API key may be in progress");
    assertThat(victimGet(second, "/v1/agents").statusCode())
        .as("the cap is per key")
        .isEqualTo(200);

    for (int i = 0; i < 3; i++) {
      held.add(slowBody(second.key(), "/v1/agents"));
    }
    awaitRefused(third, "At most 6 requests of one client address may be in progress");

    for (RawConnection connection : held) {
      assertThat(connection.closed()).succeedsWithin(Duration.ofSeconds(20));
      assertThat(connection.status()).isEqualTo(408);
    }
    assertThat(victimGet(first, "/v1/agents").statusCode())
        .as("slots come back when requests end")
        .isEqualTo(200);
  }

  @Test
  void openStreamsPerKeyAreCappedWith429() {
    TestUser user = user("streamer");
    SseClient sse = new SseClient(server.baseUrl());
    String body = "{\"task\": \"" + FakeOperator.HOLD + " stay open\"}";
    try (SseClient.Stream one = sse.post("/v1/threads", user.key(), body);
        SseClient.Stream two = sse.post("/v1/threads", user.key(), body)) {
      HttpResponse<String> third = post(user, "/v1/threads", body);
      assertConcurrencyLimited(third, "At most 2 streams of one API key may be open");
      assertThat(victimGet(user, "/v1/agents").statusCode())
          .as("other requests go on")
          .isEqualTo(200);
    }
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(() ->
            assertThat(post(user, "/v1/threads", "{\"title\": \"after\"}").statusCode())
                .as("a closed stream frees its place")
                .isEqualTo(201));
  }

  @Test
  void whatTomcatRefusesItselfGetsTheJsonErrorBody() {
    RawConnection backslash =
        track(RawConnection.open(server.baseUrl(), "GET /v1/threads\\x HTTP/1.1\r\nHost: {host}"));
    RawConnection hugeHeader =
        track(
            RawConnection.open(
                server.baseUrl(),
                "GET /v1/agents HTTP/1.1\r\nHost: {host}\r\nX-Big: " + "a".repeat(100_000)));
    RawConnection badLine =
        track(
            RawConnection.open(server.baseUrl(), "GET /v1/agents HTTP/1.1 extra\r\nHost: {host}"));

    for (RawConnection connection : List.of(backslash, hugeHeader, badLine)) {
      assertThat(connection.closed()).succeedsWithin(Duration.ofSeconds(10));
      assertThat(connection.status()).isEqualTo(400);
      assertThat(connection.header("Content-Type")).startsWith("application/json");
      JsonNode error = errorOf(connection);
      assertThat(error.get("error").asString()).isEqualTo("Bad Request");
      assertThat(error.get("message").asString()).startsWith("Malformed request");
    }
  }

  private static void assertConcurrencyLimited(HttpResponse<String> response, String message) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(429);
    assertThat(response.headers().firstValue("Retry-After")).contains("1");
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.get("error").asString()).isEqualTo("Too Many Requests");
    assertThat(body.get("code").asString()).isEqualTo("concurrency_limited");
    assertThat(body.get("message").asString()).startsWith(message);
  }

  private static void awaitRefused(TestUser user, String message) {
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(() -> assertConcurrencyLimited(victimGet(user, "/v1/agents"), message));
  }

  /** The attack: a slow body on the request that creates a thread (and may stream). */
  private RawConnection slowBody(String key) {
    return slowBody(key, "/v1/threads");
  }

  private RawConnection slowBody(String key, String path) {
    return track(RawConnection.slowBody(server.baseUrl(), path, key, DECLARED, TRICKLE_MS));
  }

  private RawConnection track(RawConnection connection) {
    connections.add(connection);
    return connection;
  }

  private static JsonNode errorOf(RawConnection connection) {
    String body = connection.body();
    try {
      return JSON.readTree(body.substring(body.indexOf('{'), body.indexOf('}') + 1));
    } catch (RuntimeException notJson) {
      throw new AssertionError("not a JSON error body: " + connection.head().join() + "\n" + body);
    }
  }

  private static TestUser user(String name) {
    TestUser user = shared.newUser(name);
    api.awaitAccepted(user.key());
    return user;
  }

  private static HttpResponse<String> victimGet(TestUser user, String path) {
    return send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + user.key())
            .GET());
  }

  private static HttpResponse<String> post(TestUser user, String path, String json) {
    return send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + user.key())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  private static String closed(InputStream stream) {
    try {
      stream.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    return "(a stream)";
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      // A stream's body never ends: only its status matters here.
      return HTTP.send(
          request.build(),
          info ->
              info.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")
                  ? HttpResponse.BodySubscribers.mapping(
                      HttpResponse.BodySubscribers.ofInputStream(),
                      EdgeBoundsMockServerTest::closed)
                  : HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError("no answer: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
