package dev.threadline.api.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.NewEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams that never lose an event: a stream cut anywhere and resumed with {@code Last-Event-ID}
 * delivers every remaining event exactly once, with the ids an uninterrupted stream had.
 */
class StreamResumeMockServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final long SEED = 20_261_111L;
  private static final int CUTS = 50;
  private static final int LONG_RUN = 2_000;

  private static SharedApiServer shared;
  private static SseClient sse;
  private static FakeOperator operator;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    sse = new SseClient(shared.baseUrl());
    operator = FakeOperator.on(shared);
  }

  @Test
  void fiftyRandomCutsEachResumeWithEveryRemainingEventExactlyOnce() {
    TestUser alice = shared.newUser("alice");
    List<SseClient.Frame> uninterrupted;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", alice.key(), "{\"task\": \"[computer] write notes\"}")) {
      uninterrupted = stream.remainingEvents();
    }
    String threadId = uninterrupted.getFirst().json().get("thread").get("id").asString();
    String path = "/v1/threads/" + threadId + "/stream";
    List<String> afterThreadCreated = describe(uninterrupted.subList(1, uninterrupted.size()));
    assertThat(uninterrupted)
        .extracting(SseClient.Frame::id)
        .doesNotHaveDuplicates()
        .doesNotContainNull();
    // Joining without a cursor replays the run from its start: the same events under the same ids.
    assertThat(describe(read(path, alice, Map.of()))).isEqualTo(afterThreadCreated);

    Random random = new Random(SEED);
    for (int cut = 0; cut < CUTS; cut++) {
      int received = random.nextInt(afterThreadCreated.size());
      List<SseClient.Frame> before = new ArrayList<>();
      String lastId = uninterrupted.getFirst().id();
      if (received > 0) {
        try (SseClient.Stream first = sse.get(path, alice.key(), Map.of())) {
          for (int i = 0; i < received; i++) {
            before.add(first.nextEvent());
          }
        } // the connection dies here, mid-stream
        lastId = before.getLast().id();
      }
      List<SseClient.Frame> after = read(path, alice, Map.of("Last-Event-ID", lastId));

      List<String> union = new ArrayList<>(describe(before));
      union.addAll(describe(after));
      assertThat(union)
          .as("cut after %d events (Last-Event-ID %s)", received, lastId)
          .isEqualTo(afterThreadCreated);
    }
  }

  @Test
  void aStreamCutWhileTheRunIsLiveResumesLiveAndTheQueryParameterWorksLikeTheHeader() {
    TestUser bob = shared.newUser("bob");
    String threadId;
    String createdId;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", bob.key(), "{\"task\": \"" + FakeOperator.HOLD + " live\"}")) {
      SseClient.Frame created = stream.nextEvent();
      threadId = created.json().get("thread").get("id").asString();
      createdId = created.id();
    } // gone while the run has not even started
    String runName = "run-" + threadId.substring("thread_".length()) + "-1";
    String path = "/v1/threads/" + threadId + "/stream";
    Instant now = Instant.now();
    List<NewEvent> log =
        new ArrayList<>(
            List.of(
                FakeOperator.event("started", "started", now, Map.of("route", "computer")),
                FakeOperator.event("runner:1", "planning", now, Map.of("text", "Plan"))));
    writeStatus(bob.namespace(), runName, log, "running");

    List<SseClient.Frame> before = new ArrayList<>();
    try (SseClient.Stream first = sse.get(path, bob.key(), Map.of("Last-Event-ID", createdId))) {
      before.add(first.nextEvent());
      before.add(first.nextEvent());
    }
    assertThat(before)
        .extracting(SseClient.Frame::type)
        .containsExactly("computer.starting", "response.item.completed");

    log.add(
        FakeOperator.event(
            "runner:2",
            "tool_call",
            now,
            Map.of("tool", Map.of("command", "ls", "output", "a\n"))));
    writeStatus(bob.namespace(), runName, log, "running");
    List<SseClient.Frame> after = new ArrayList<>();
    try (SseClient.Stream second =
        sse.get(path + "?after=" + before.getLast().id(), bob.key(), Map.of())) {
      after.add(second.nextEvent());
      after.add(second.nextEvent());
      log.add(FakeOperator.event("runner:3", "message", now, Map.of("text", "Done")));
      log.add(FakeOperator.event("runner:4", "result", now, Map.of("response", "Done")));
      writeStatus(bob.namespace(), runName, log, "completed");
      after.addAll(second.remainingEvents());
    }

    List<String> union = new ArrayList<>(describe(before));
    union.addAll(describe(after));
    assertThat(union).isEqualTo(describe(read(path, bob, Map.of())));
    assertThat(after)
        .extracting(SseClient.Frame::type)
        .containsExactly(
            "response.started",
            "response.item.completed",
            "response.item.completed",
            "response.completed",
            "stream.completed");
  }

  @Test
  void repeatingAStreamingPostWithLastEventIdResumesInsteadOfStartingAnotherRun() {
    TestUser carol = shared.newUser("carol");
    List<SseClient.Frame> first;
    try (SseClient.Stream stream = sse.post("/v1/threads", carol.key(), "{\"task\": \"hello\"}")) {
      first = stream.remainingEvents();
    }
    String threadId = first.getFirst().json().get("thread").get("id").asString();

    List<SseClient.Frame> again =
        readPost("/v1/threads", carol, "{\"task\": \"hello\"}", first.get(1).id());
    assertThat(describe(again)).isEqualTo(describe(first.subList(2, first.size())));
    List<SseClient.Frame> messageAgain =
        readPost(
            "/v1/threads/" + threadId + "/messages",
            carol,
            "{\"content\": \"hello\"}",
            first.getFirst().id());
    assertThat(describe(messageAgain)).isEqualTo(describe(first.subList(1, first.size())));

    assertThat(
            shared.client().resources(Run.class).inNamespace(carol.namespace()).list().getItems())
        .hasSize(1);
  }

  @Test
  void aLongRunReplaysEveryEventFromTheFirstAfterItEndedAndResumesInTheMiddle() {
    TestUser dave = shared.newUser("dave");
    String threadId;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", dave.key(), "{\"task\": \"" + FakeOperator.HOLD + " long\"}")) {
      threadId = stream.nextEvent().json().get("thread").get("id").asString();
    }
    String runId = "run_" + threadId.substring("thread_".length()) + "-1";
    Instant now = Instant.now();
    // 2,000 events: far past the 500 a Run's status once kept.
    List<NewEvent> log = new ArrayList<>();
    log.add(FakeOperator.event("started", "started", now, Map.of("route", "computer")));
    for (int n = 1; n <= LONG_RUN - 2; n++) {
      log.add(
          FakeOperator.event(
              "runner:" + n,
              "tool_call",
              now,
              Map.of("tool", Map.of("command", "echo " + n, "output", n + "\n"))));
    }
    log.add(FakeOperator.event("runner:" + (LONG_RUN - 1), "result", now, Map.of()));
    writeStatus(dave.namespace(), runId.replace('_', '-'), log, "completed");
    String path = "/v1/threads/" + threadId + "/stream";

    List<SseClient.Frame> replay = read(path, dave, Map.of());
    // computer.starting, response.started, one item per tool call, the terminal pair
    assertThat(replay).hasSize(LONG_RUN + 2);
    assertThat(replay).extracting(SseClient.Frame::id).doesNotHaveDuplicates();
    assertThat(replay.getFirst().id()).isEqualTo(runId + ":1:0");
    assertThat(replay.get(2).json().get("item").get("tool").get("command").asString())
        .isEqualTo("echo 1");
    assertThat(replay.get(LONG_RUN - 1).json().get("item").get("tool").get("command").asString())
        .isEqualTo("echo " + (LONG_RUN - 2));
    assertThat(replay.getLast().type()).isEqualTo("stream.completed");
    assertThat(replay.getLast().id()).isEqualTo(runId + ":" + LONG_RUN + ":1");

    int middle = 1_234;
    List<SseClient.Frame> resumed =
        read(path, dave, Map.of("Last-Event-ID", replay.get(middle).id()));
    assertThat(describe(resumed)).isEqualTo(describe(replay.subList(middle + 1, replay.size())));
    // A cursor from the run's first entry: no 410 for a kept run, however long its log.
    assertThat(read(path, dave, Map.of("Last-Event-ID", runId + ":1:0"))).hasSize(LONG_RUN + 1);
  }

  @Test
  void aMalformedCursorIs400() {
    TestUser erin = shared.newUser("erin");
    String threadId;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", erin.key(), "{\"task\": \"" + FakeOperator.HOLD + " wait\"}")) {
      threadId = stream.nextEvent().json().get("thread").get("id").asString();
    }
    String path = "/v1/threads/" + threadId + "/stream";

    JsonNode malformed = errorOf(path, erin, Map.of("Last-Event-ID", "17"), 400);
    assertThat(malformed.get("error").asString()).isEqualTo("Bad Request");
    assertThat(malformed.get("message").asString())
        .startsWith("Last-Event-ID is not a stream event id");
    assertThat(errorOf(path + "?after=nope", erin, Map.of(), 400).get("message").asString())
        .startsWith("after is not a stream event id");
    assertThat(
            errorOf(path, erin, Map.of("Last-Event-ID", "run_other-1:1:0"), 400)
                .get("message")
                .asString())
        .contains("not a run of thread " + threadId);
  }

  private static List<SseClient.Frame> read(
      String path, TestUser user, Map<String, String> headers) {
    try (SseClient.Stream stream = sse.get(path, user.key(), headers)) {
      assertThat(stream.status()).isEqualTo(200);
      return stream.remainingEvents();
    }
  }

  private static List<SseClient.Frame> readPost(
      String path, TestUser user, String body, String lastEventId) {
    try (SseClient.Stream stream =
        sse.post(path, user.key(), body, Map.of("Last-Event-ID", lastEventId))) {
      assertThat(stream.status()).isEqualTo(200);
      return stream.remainingEvents();
    }
  }

  private static JsonNode errorOf(
      String path, TestUser user, Map<String, String> headers, int status) {
    try (SseClient.Stream stream = sse.get(path, user.key(), headers)) {
      assertThat(stream.status()).isEqualTo(status);
      assertThat(stream.header("Content-Type")).startsWith("application/json");
      return JSON.readTree(stream.body());
    }
  }

  /** Each event as its id and its data, so equal lists mean the same events under the same ids. */
  private static List<String> describe(List<SseClient.Frame> frames) {
    return frames.stream().map(frame -> frame.id() + " " + frame.data()).toList();
  }

  /** Appends the log to the store (keys already there are skipped), then writes the status. */
  private static void writeStatus(String namespace, String name, List<NewEvent> log, String phase) {
    await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .untilAsserted(() -> {
          Run run =
              shared.client().resources(Run.class).inNamespace(namespace).withName(name).get();
          RunStatus status = new RunStatus();
          status.setPhase(phase);
          status.setRoute(log.getFirst().type().equals("started") ? "computer" : "direct");
          status.setStartedAt(log.getFirst().time());
          if (!phase.equals("running")) {
            status.setCompletedAt(log.getLast().time());
            status.setResponse("Done");
          }
          operator.writeStatus(run, status, List.copyOf(log));
        });
  }
}
