package dev.threadline.api.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code Idempotency-Key} on every POST that starts work: a repeat gets the first result (a stream
 * joins the first run from its start), concurrent duplicates start one run, a different request
 * with the key is 422, a repeat while the first is in flight is 409.
 */
class IdempotencyMockServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int CONCURRENT = 8;

  private static SharedApiServer shared;
  private static SseClient sse;
  private static FakeOperator operator;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    sse = new SseClient(shared.baseUrl());
    operator = FakeOperator.on(shared);
  }

  @Test
  void concurrentDuplicatesOfAStreamingPostStartOneRunAndARepeatReplaysItsStreamFromTheStart()
      throws Exception {
    TestUser alice = shared.newUser("alice");
    String body = "{\"task\": \"" + FakeOperator.HOLD + " once\"}";
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Optional<String>>> answers = new ArrayList<>();
    try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < CONCURRENT; i++) {
        answers.add(
            clients.submit(
                (Callable<Optional<String>>)
                    () -> {
                      go.await();
                      try (SseClient.Stream stream =
                          sse.post(
                              "/v1/threads", alice.key(), body, Map.of("Idempotency-Key", "k-1"))) {
                        if (stream.status() == 409) {
                          assertThat(stream.body()).contains("still in progress");
                          return Optional.empty();
                        }
                        assertThat(stream.status()).isEqualTo(200);
                        return Optional.of(
                            stream.nextEvent().json().get("thread").get("id").asString());
                      }
                    }));
      }
      go.countDown();
    }
    List<String> threadIds = new ArrayList<>();
    for (Future<Optional<String>> answer : answers) {
      answer.get().ifPresent(threadIds::add);
    }
    assertThat(threadIds).isNotEmpty().containsOnly(threadIds.getFirst());
    assertThat(runs(alice)).hasSize(1);
    assertThat(
            shared
                .client()
                .resources(ConversationThread.class)
                .inNamespace(alice.namespace())
                .list()
                .getItems())
        .hasSize(1);

    Run run = runs(alice).getFirst();
    operator.answer(alice.namespace(), run.getMetadata().getName());
    List<SseClient.Frame> replayed;
    try (SseClient.Stream repeat =
        sse.post("/v1/threads", alice.key(), body, Map.of("Idempotency-Key", "k-1"))) {
      assertThat(repeat.header("Idempotent-Replayed")).isEqualTo("true");
      replayed = repeat.remainingEvents();
    }
    assertThat(replayed)
        .extracting(SseClient.Frame::type)
        .containsExactly(
            "thread.created", "direct.response", "response.completed", "stream.completed");
    assertThat(replayed.getFirst().json().get("thread").get("id").asString())
        .isEqualTo(threadIds.getFirst());
    assertThat(runs(alice)).hasSize(1);
  }

  @Test
  void aFollowUpMessageRepeatedJoinsTheFirstRunAndADifferentBodyIs422() {
    TestUser bob = shared.newUser("bob");
    String threadId =
        json(post("/v1/threads", bob, "{\"title\": \"empty\"}", null))
            .get("thread")
            .get("id")
            .asString();
    String path = "/v1/threads/" + threadId + "/messages";

    List<SseClient.Frame> first = streamOf(path, bob, "{\"content\": \"hi\"}", "m-1");
    List<SseClient.Frame> repeat = streamOf(path, bob, "{\"content\":  \"hi\"}", "m-1");

    assertThat(first)
        .extracting(SseClient.Frame::type)
        .containsExactly(
            "response.created",
            "response.output_item.added",
            "response.item.completed",
            "response.completed",
            "stream.completed");
    assertThat(repeat)
        .extracting(frame -> frame.id() + frame.data())
        .isEqualTo(first.stream().map(frame -> frame.id() + frame.data()).toList());
    assertThat(runs(bob)).hasSize(1);
    HttpResponse<String> different = post(path, bob, "{\"content\": \"bye\"}", "m-1");
    assertThat(different.statusCode()).isEqualTo(422);
    assertThat(json(different).get("error").asString()).isEqualTo("Unprocessable Entity");
    assertThat(json(different).get("message").asString())
        .contains("Idempotency-Key was already used");
    assertThat(runs(bob)).hasSize(1);
  }

  @Test
  void jsonAnswersAreRepeatedAsTheyWereAndAFailedFirstRequestLeavesTheKeyFree() {
    TestUser carol = shared.newUser("carol");

    HttpResponse<String> invalid =
        post("/v1/threads", carol, "{\"stream\": false, \"task\": 7, \"schedule\": {}}", "t-1");
    assertThat(invalid.statusCode()).isEqualTo(400);
    HttpResponse<String> first =
        post("/v1/threads", carol, "{\"task\": \"hi\", \"stream\": false}", "t-1");
    HttpResponse<String> repeat =
        post("/v1/threads", carol, "{\"stream\": false, \"task\": \"hi\"}", "t-1");

    assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
    assertThat(repeat.statusCode()).isEqualTo(201);
    assertThat(repeat.headers().firstValue("Idempotent-Replayed")).contains("true");
    assertThat(json(repeat).get("thread").get("id")).isEqualTo(json(first).get("thread").get("id"));
    assertThat(json(repeat).get("execution")).isEqualTo(json(first).get("execution"));
    assertThat(runs(carol)).hasSize(1);

    HttpResponse<String> empty = post("/v1/threads", carol, "{\"title\": \"t\"}", "t-2");
    HttpResponse<String> emptyAgain = post("/v1/threads", carol, "{\"title\": \"t\"}", "t-2");
    assertThat(emptyAgain.body()).isEqualTo(empty.body());
    assertThat(emptyAgain.headers().firstValue("Location"))
        .isEqualTo(empty.headers().firstValue("Location"));
    assertThat(
            shared
                .client()
                .resources(ConversationThread.class)
                .inNamespace(carol.namespace())
                .list()
                .getItems())
        .hasSize(2);
  }

  @Test
  void aRepeatWhileTheFirstIsInFlightIs409AndAnExpiredOrAbandonedRecordIsTakenOver() {
    TestUser dave = shared.newUser("dave");
    String body = "{\"title\": \"x\"}";
    RequestFingerprint fingerprint =
        RequestFingerprint.of("POST", "/v1/threads", JSON.readTree(body));
    Instant now = Instant.now();
    record(dave, "f-1", IdempotencyRecord.claim(fingerprint.hash(), now, Duration.ofHours(24)));

    HttpResponse<String> inFlight = post("/v1/threads", dave, body, "f-1");
    assertThat(inFlight.statusCode()).isEqualTo(409);
    assertThat(json(inFlight).get("message").asString()).contains("still in progress");

    record(
        dave,
        "f-2",
        IdempotencyRecord.claim(
            fingerprint.hash(), now.minus(Duration.ofMinutes(5)), Duration.ofHours(24)));
    assertThat(post("/v1/threads", dave, body, "f-2").statusCode()).isEqualTo(201);
    record(
        dave,
        "f-3",
        IdempotencyRecord.claim(
                fingerprint.hash(), now.minus(Duration.ofHours(25)), Duration.ofHours(24))
            .done(new StoredResult.Json(201, null, "{\"old\":true}")));
    HttpResponse<String> afterExpiry = post("/v1/threads", dave, body, "f-3");
    assertThat(afterExpiry.statusCode()).isEqualTo(201);
    assertThat(json(afterExpiry).has("thread")).isTrue();
    assertThat(post("/v1/threads", dave, body, "f-3").body()).isEqualTo(afterExpiry.body());
  }

  @Test
  void schedulesAndTheirTriggerAndEnvironmentBuildsAreIdempotentToo() {
    TestUser erin = shared.newUser("erin");
    String schedule =
        "{\"name\": \"Nightly\", \"task\": \"hi\", \"scheduleType\": \"recurring\","
            + " \"cronExpression\": \"0 3 * * *\"}";

    HttpResponse<String> created = post("/v1/schedules", erin, schedule, "s-1");
    HttpResponse<String> again = post("/v1/schedules", erin, schedule, "s-1");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(again.statusCode()).isEqualTo(201);
    assertThat(again.body()).isEqualTo(created.body());
    assertThat(
            post("/v1/schedules", erin, schedule.replace("Nightly", "Daily"), "s-1").statusCode())
        .isEqualTo(422);
    String scheduleId = json(created).get("schedule").get("id").asString();
    assertThat(
            shared
                .client()
                .resources(dev.threadline.crds.schedule.Schedule.class)
                .inNamespace(erin.namespace())
                .list()
                .getItems())
        .hasSize(1);

    String trigger = "/v1/schedules/" + scheduleId + "/trigger";
    HttpResponse<String> triggered = post(trigger, erin, null, "tr-1");
    HttpResponse<String> triggeredAgain = post(trigger, erin, null, "tr-1");
    assertThat(triggered.statusCode()).as(triggered.body()).isEqualTo(200);
    assertThat(triggeredAgain.body()).isEqualTo(triggered.body());
    assertThat(
            shared
                .client()
                .resources(ConversationThread.class)
                .inNamespace(erin.namespace())
                .list()
                .getItems())
        .hasSize(1);
    assertThat(post(trigger, erin, null, "tr-2").statusCode())
        .as("a new key is a new firing")
        .isEqualTo(200);

    HttpResponse<String> environment = post("/environments", erin, "{\"name\": \"idem\"}", null);
    String build =
        "/environments/" + json(environment).get("environment").get("id").asString() + "/build";
    HttpResponse<String> accepted = post(build, erin, null, "b-1");
    HttpResponse<String> acceptedAgain = post(build, erin, null, "b-1");
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
    assertThat(acceptedAgain.statusCode())
        .as("the first answer, not 'build already in progress'")
        .isEqualTo(202);
    assertThat(acceptedAgain.body()).isEqualTo(accepted.body());
    assertThat(post(build, erin, null, "b-2").statusCode()).isEqualTo(409);
    assertThat(post(build + "?force=true", erin, null, "b-1").statusCode())
        .as("another path")
        .isEqualTo(422);
  }

  @Test
  void aMalformedKeyIs400NamingTheHeader() {
    TestUser fay = shared.newUser("fay");
    HttpResponse<String> response = post("/v1/threads", fay, "{}", "x".repeat(256));
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(json(response).get("message").asString()).startsWith("Idempotency-Key must be");
  }

  private static List<Run> runs(TestUser user) {
    return shared.client().resources(Run.class).inNamespace(user.namespace()).list().getItems();
  }

  private static void record(TestUser user, String key, IdempotencyRecord state) {
    shared
        .client()
        .configMaps()
        .inNamespace(user.namespace())
        .resource(state.toConfigMap(user.namespace(), IdempotencyKeys.recordName(key)))
        .create();
  }

  private static List<SseClient.Frame> streamOf(
      String path, TestUser user, String body, String key) {
    try (SseClient.Stream stream =
        sse.post(path, user.key(), body, Map.of("Idempotency-Key", key))) {
      assertThat(stream.status()).isEqualTo(200);
      return stream.remainingEvents();
    }
  }

  private static HttpResponse<String> post(String path, TestUser user, String body, String key) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(shared.baseUrl() + path))
            .header("Authorization", "Bearer " + user.key())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode json(HttpResponse<String> response) {
    return JSON.readTree(response.body());
  }
}
