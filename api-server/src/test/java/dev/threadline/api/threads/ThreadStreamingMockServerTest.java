package dev.threadline.api.threads;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiTest;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.run.Run;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The message flows over real HTTP: SSE sequences, stream: false, disconnects. */
class ThreadStreamingMockServerTest extends SharedApiTest {
  @Test
  void directPathStreamsThreadCreatedDirectResponseCompletedAndStreamCompleted() {
    TestUser alice = shared.newUser("alice");

    try (SseClient.Stream stream =
        sse.post(
            "/v1/threads",
            alice.key(),
            "{\"messages\": [{\"role\": \"user\", \"content\": \"Hello there\"}],"
                + " \"environmentId\": \"env_default\"}")) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.header("Content-Type")).startsWith("text/event-stream");
      assertThat(stream.header("Cache-Control")).isEqualTo("no-cache");
      assertThat(stream.header("X-Accel-Buffering")).isEqualTo("no");
      List<SseClient.Frame> events = stream.remainingEvents();

      assertThat(events)
          .extracting(SseClient.Frame::type)
          .containsExactly(
              "thread.created", "direct.response", "response.completed", "stream.completed");
      JsonNode thread = events.get(0).json().get("thread");
      String threadId = thread.get("id").asString();
      String runId = "run_" + threadId.substring("thread_".length()) + "-1";
      // Cursors into the run's log: thread.created before it, then per log entry (2: message, 3:
      // result).
      assertThat(events)
          .extracting(SseClient.Frame::id)
          .containsExactly(runId + ":0:0", runId + ":2:0", runId + ":3:0", runId + ":3:1");
      assertThat(threadId).matches("thread_[a-z0-9]{20}");
      assertThat(thread.get("status").asString()).isEqualTo("running");
      assertThat(thread.get("environmentId").asString()).isEqualTo("env_default");
      JsonNode direct = events.get(1).json();
      assertThat(direct.get("message").asString()).isEqualTo("Echo: Hello there");
      assertThat(direct.get("threadId").asString()).isEqualTo(threadId);
      assertThat(direct.get("userId").asString()).isEqualTo(alice.userId());
      JsonNode response = events.get(2).json().get("response");
      assertThat(response.get("id").asString())
          .isEqualTo("run_" + threadId.substring("thread_".length()) + "-1");
      assertThat(response.get("thread_id").asString()).isEqualTo(threadId);
      assertThat(response.get("status").asString()).isEqualTo("completed");
      assertThat(response.get("duration_ms").asLong()).isEqualTo(FakeOperator.DURATION_MS);
      assertThat(response.get("usage").get("input_tokens").asLong())
          .isEqualTo(FakeOperator.INPUT_TOKENS);
      assertThat(response.get("usage").get("output_tokens").asLong())
          .isEqualTo(FakeOperator.OUTPUT_TOKENS);
      assertThat(response.get("usage").get("cached_tokens").asLong())
          .isEqualTo(FakeOperator.CACHED_TOKENS);
      assertThat(response.get("usage").get("total_tokens").asLong())
          .isEqualTo(FakeOperator.INPUT_TOKENS + FakeOperator.OUTPUT_TOKENS);
      assertThat(response.get("completed_at").asLong()).isGreaterThan(1_700_000_000L);
      assertThat(events.get(3).json().propertyNames()).containsExactly("type");
      assertThat(stream.raw()).contains("\ndata: {\"type\":\"direct.response\"");

      JsonNode after = api.get("/v1/threads/" + threadId, alice.key()).json().get("thread");
      assertThat(after.get("status").asString()).isEqualTo("completed");
      assertThat(after.get("messageCount").asLong()).isEqualTo(2);
    }
  }

  @Test
  void executionFailureStreamsResponseFailedThenStreamCompleted() {
    TestUser bob = shared.newUser("bob");

    try (SseClient.Stream stream =
        sse.post("/v1/threads", bob.key(), "{\"task\": \"[fail] please\"}")) {
      List<SseClient.Frame> events = stream.remainingEvents();

      assertThat(events)
          .extracting(SseClient.Frame::type)
          .containsExactly("thread.created", "response.failed", "stream.completed");
      JsonNode response = events.get(1).json().get("response");
      String threadId = events.get(0).json().get("thread").get("id").asString();
      assertThat(response.get("id").asString()).startsWith("run_").endsWith("-1");
      assertThat(response.get("thread_id").asString()).isEqualTo(threadId);
      assertThat(response.get("status").asString()).isEqualTo("failed");
      assertThat(response.get("error").get("code").asString()).isEqualTo("execution_failed");
      assertThat(response.get("error").get("message").asString()).isEqualTo("Model unavailable");
      assertThat(response.get("duration_ms").asLong()).isEqualTo(FakeOperator.DURATION_MS);
      assertThat(response.get("failed_at").asLong()).isGreaterThan(1_700_000_000L);
      assertThat(
              api.get("/v1/threads/" + threadId, bob.key())
                  .json()
                  .get("thread")
                  .get("status")
                  .asString())
          .isEqualTo("failed");
    }
  }

  @Test
  void computerPathStreamsStartingPlanningStartedItemsAndCompletion() {
    TestUser carol = shared.newUser("carol");

    try (SseClient.Stream stream =
        sse.post("/v1/threads", carol.key(), "{\"task\": \"[computer] write notes\"}")) {
      List<SseClient.Frame> events = stream.remainingEvents();

      assertThat(events)
          .extracting(SseClient.Frame::type)
          .containsExactly(
              "thread.created",
              "computer.starting",
              "response.item.completed",
              "response.started",
              "response.item.completed",
              "response.item.completed",
              "response.item.completed",
              "response.item.completed",
              "response.item.completed",
              "response.item.completed",
              "response.completed",
              "stream.completed");
      String threadId = events.get(0).json().get("thread").get("id").asString();
      String suffix = threadId.substring("thread_".length());
      assertThat(events.get(1).json().get("userId").asString()).isEqualTo(carol.userId());
      assertThat(events.get(2).json().get("item").get("type").asString()).isEqualTo("planning");
      assertThat(events.get(2).json().get("item").get("id").asString())
          .isEqualTo("planning_" + suffix + "-1-3");
      JsonNode started = events.get(3).json().get("response");
      assertThat(started.get("id").asString()).isEqualTo("run_" + suffix + "-1");
      assertThat(started.get("execution_mode").asString()).isEqualTo("containerized");
      assertThat(started.get("status").asString()).isEqualTo("in_progress");
      assertThat(started.get("workspace_id").asString()).isEqualTo("workspace_" + suffix);
      assertThat(started.get("user_id").asString()).isEqualTo(carol.userId());
      assertThat(events.subList(4, 10))
          .extracting(frame -> frame.json().get("item").get("type").asString())
          .containsExactly("setup", "reasoning", "tool_call", "file_change", "error", "message");
      JsonNode tool = events.get(6).json().get("item");
      assertThat(tool.get("id").asString()).isEqualTo("tool_" + suffix + "-1-6");
      assertThat(tool.get("tool").get("command").asString()).isEqualTo("ls");
      assertThat(tool.get("tool").get("exit_code").asInt()).isZero();
      assertThat(tool.get("metadata").get("duration_ms").asLong()).isEqualTo(12);
      JsonNode message = events.get(9).json().get("item");
      assertThat(message.get("id").asString()).startsWith("msg_");
      assertThat(message.get("content").get(0).get("text").asString())
          .isEqualTo("Done: notes.txt written");
      assertThat(events.get(10).json().get("response").get("duration_ms").asLong()).isEqualTo(1500);
    }
  }

  @Test
  void followUpMessageStreamsWithoutThreadCreatedAsTheThreadsNextRun() {
    TestUser dave = shared.newUser("dave");
    String threadId = createIdleThread(dave);
    String suffix = threadId.substring("thread_".length());

    List<SseClient.Frame> first =
        sse.post("/v1/threads/" + threadId + "/messages", dave.key(), "{\"content\": \"one\"}")
            .remainingEvents();
    List<SseClient.Frame> second =
        sse.post("/v1/threads/" + threadId + "/messages", dave.key(), "{\"content\": \"two\"}")
            .remainingEvents();

    // The contract's form for POST /messages: no thread.created, no direct.response.
    List<String> generalForm =
        List.of(
            "response.created",
            "response.output_item.added",
            "response.item.completed",
            "response.completed",
            "stream.completed");
    assertThat(first).extracting(SseClient.Frame::type).containsExactlyElementsOf(generalForm);
    assertThat(second).extracting(SseClient.Frame::type).containsExactlyElementsOf(generalForm);
    assertThat(first.get(0).json().get("response").get("id").asString())
        .isEqualTo("run_" + suffix + "-1");
    assertThat(second.get(3).json().get("response").get("id").asString())
        .isEqualTo("run_" + suffix + "-2");
    assertThat(second.get(1).json().get("item").get("status").asString()).isEqualTo("in_progress");
    assertThat(second.get(2).json().get("item").get("content").get(0).get("text").asString())
        .isEqualTo("Echo: two");
    Run run =
        shared
            .client()
            .resources(Run.class)
            .inNamespace(dave.namespace())
            .withName("run-" + suffix + "-2")
            .get();
    assertThat(run.getSpec().getSequence()).isEqualTo(2);
    assertThat(run.getSpec().getSource()).isEqualTo("api");
    assertThat(run.getMetadata().getLabels())
        .containsEntry("threadline.dev/thread", "thread-" + suffix);
    assertThat(run.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getKind()).isEqualTo("Thread");
          assertThat(owner.getName()).isEqualTo("thread-" + suffix);
          assertThat(owner.getController()).isTrue();
        });
  }

  @Test
  void streamFalseAnswersWithTheFinishedThreadAndTheExecution() {
    TestUser erin = shared.newUser("erin");

    ApiClient.Response created =
        api.post(
            "/v1/threads",
            erin.key(),
            "{\"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}], \"stream\": false,"
                + " \"title\": \"Greeting\"}");

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.header("Content-Type")).startsWith("application/json");
    JsonNode thread = created.json().get("thread");
    assertThat(created.header("Location")).isEqualTo("/v1/threads/" + thread.get("id").asString());
    assertThat(thread.get("status").asString()).isEqualTo("completed");
    assertThat(thread.get("messageCount").asLong()).isEqualTo(2);
    assertThat(thread.get("title").asString()).isEqualTo("Greeting");
    assertThat(thread.get("inputTokens").asLong()).isEqualTo(FakeOperator.INPUT_TOKENS);
    assertThat(thread.get("totalCost").asDouble()).isEqualTo(FakeOperator.COST);
    JsonNode execution = created.json().get("execution");
    assertThat(execution.get("success").asBoolean()).isTrue();
    assertThat(execution.get("response").asString()).isEqualTo("Echo: Hi");
    assertThat(execution.get("actions").isArray()).isTrue();
    assertThat(execution.get("durationMs").asLong()).isEqualTo(FakeOperator.DURATION_MS);
    assertThat(execution.get("usage").get("inputTokens").asLong())
        .isEqualTo(FakeOperator.INPUT_TOKENS);
    assertThat(execution.get("usage").get("outputTokens").asLong())
        .isEqualTo(FakeOperator.OUTPUT_TOKENS);
    assertThat(execution.has("error")).isFalse();

    ApiClient.Response failed =
        api.post(
            "/v1/threads/" + thread.get("id").asString() + "/messages",
            erin.key(),
            "{\"content\": \"[fail] again\", \"stream\": false}");
    assertThat(failed.status()).isEqualTo(200);
    assertThat(failed.json().get("thread").get("status").asString()).isEqualTo("failed");
    assertThat(failed.json().get("execution").get("success").asBoolean()).isFalse();
    assertThat(failed.json().get("execution").get("error").get("code").asString())
        .isEqualTo("execution_failed");
  }

  @Test
  void idleStreamSendsKeepaliveCommentsUntilTheRunMoves() {
    TestUser fay = shared.newUser("fay");

    try (SseClient.Stream stream =
        sse.post("/v1/threads", fay.key(), "{\"task\": \"[hold] wait for it\"}")) {
      SseClient.Frame created = stream.next();
      assertThat(created.type()).isEqualTo("thread.created");
      SseClient.Frame keepalive = stream.next();
      assertThat(keepalive.comment()).isEqualTo("keepalive");
      assertThat(stream.raw()).contains("\n: keepalive\n");

      operator.answer(
          fay.namespace(), runName(created.json().get("thread").get("id").asString(), 1));
      assertThat(stream.remainingEvents())
          .extracting(SseClient.Frame::type)
          .containsExactly("direct.response", "response.completed", "stream.completed");
    }
  }

  @Test
  void aClientThatDisconnectsDoesNotStopTheRun() {
    TestUser gus = shared.newUser("gus");
    String threadId;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", gus.key(), "{\"task\": \"[hold] long job\"}")) {
      threadId = stream.nextEvent().json().get("thread").get("id").asString();
    }
    String runName = runName(threadId, 1);

    operator.answer(gus.namespace(), runName);

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          JsonNode thread = api.get("/v1/threads/" + threadId, gus.key()).json().get("thread");
          assertThat(thread.get("status").asString()).isEqualTo("completed");
          assertThat(thread.get("messageCount").asLong()).isEqualTo(2);
        });
    Run run =
        shared.client().resources(Run.class).inNamespace(gus.namespace()).withName(runName).get();
    assertThat(run.getSpec().getCancelRequested()).isNull();
    assertThat(run.getStatus().getResponse()).isEqualTo("Echo: [hold] long job");
    JsonNode messages =
        api.get("/v1/threads/" + threadId + "/messages", gus.key()).json().get("data");
    assertThat(messages.get(1).get("content").asString()).isEqualTo("Echo: [hold] long job");
  }

  @Test
  void concurrentPostsOnAnIdleThreadStartExactlyOneRun() throws Exception {
    TestUser hal = shared.newUser("hal");
    String threadId = createIdleThread(hal);
    int posts = 8;
    List<SseClient.Stream> streams;
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      var start = new CountDownLatch(1);
      List<Future<SseClient.Stream>> futures = new ArrayList<>();
      for (int i = 0; i < posts; i++) {
        int n = i;
        futures.add(
            executor.submit(() -> {
              start.await();
              return sse.post(
                  "/v1/threads/" + threadId + "/messages",
                  hal.key(),
                  "{\"content\": \"[hold] racer " + n + "\"}");
            }));
      }
      start.countDown();
      streams = new ArrayList<>();
      for (var future : futures) {
        streams.add(future.get());
      }
    }

    List<SseClient.Stream> winners =
        streams.stream().filter(stream -> stream.status() == 200).toList();
    List<SseClient.Stream> losers =
        streams.stream().filter(stream -> stream.status() == 409).toList();
    assertThat(winners).hasSize(1);
    assertThat(losers).hasSize(posts - 1);
    for (SseClient.Stream loser : losers) {
      assertThat(loser.header("Content-Type")).startsWith("application/json");
      assertThat(loser.body())
          .isEqualTo("{\"error\":\"Conflict\",\"message\":\"Thread is already processing\"}\n");
    }
    assertThat(shared.client().resources(Run.class).inNamespace(hal.namespace()).list().getItems())
        .hasSize(1);

    operator.answer(hal.namespace(), runName(threadId, 1));
    assertThat(winners.getFirst().remainingEvents())
        .extracting(SseClient.Frame::type)
        .containsExactly(
            "response.created",
            "response.output_item.added",
            "response.item.completed",
            "response.completed",
            "stream.completed");
    // Once finished, the thread takes the next message again.
    assertThat(
            sse.post("/v1/threads/" + threadId + "/messages", hal.key(), "{\"content\": \"next\"}")
                .remainingEvents())
        .hasSize(5);
  }

  /**
   * Streams follow their own run by name: with other runs' changes arriving all the time, each
   * stream carries exactly its own run's events, once each.
   */
  @Test
  void concurrentStreamsEachCarryOnlyTheirOwnRun() throws Exception {
    TestUser kim = shared.newUser("kim");
    int clients = 8;
    int runsEach = 3;
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      var start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        futures.add(
            executor.submit(() -> {
              start.await();
              for (int r = 0; r < runsEach; r++) {
                String content = "Hello from client " + client + ", run " + r;
                try (SseClient.Stream stream =
                    sse.post(
                        "/v1/threads",
                        kim.key(),
                        "{\"messages\": [{\"role\": \"user\", \"content\": \""
                            + content
                            + "\"}]}")) {
                  List<SseClient.Frame> events = stream.remainingEvents();
                  assertThat(events)
                      .extracting(SseClient.Frame::type)
                      .containsExactly(
                          "thread.created",
                          "direct.response",
                          "response.completed",
                          "stream.completed");
                  String threadId = events.get(0).json().get("thread").get("id").asString();
                  String runId = "run_" + threadId.substring("thread_".length()) + "-1";
                  assertThat(events).allSatisfy(event -> assertThat(event.id()).startsWith(runId));
                  JsonNode direct = events.get(1).json();
                  assertThat(direct.get("threadId").asString()).isEqualTo(threadId);
                  assertThat(direct.get("message").asString()).isEqualTo("Echo: " + content);
                }
              }
              return null;
            }));
      }
      start.countDown();
      for (var future : futures) {
        future.get();
      }
    }
  }

  @Test
  void aMessageToABusyThreadIs409AndToAnotherUsersThreadIs404() {
    TestUser ian = shared.newUser("ian");
    TestUser jan = shared.newUser("jan");
    String threadId;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", ian.key(), "{\"task\": \"[hold] busy\"}")) {
      threadId = stream.nextEvent().json().get("thread").get("id").asString();
    }

    assertError(
        api.post("/v1/threads/" + threadId + "/messages", ian.key(), "{\"content\": \"more\"}"),
        409,
        "Conflict",
        "Thread is already processing");
    assertError(
        api.post("/v1/threads/" + threadId + "/messages", jan.key(), "{\"content\": \"mine?\"}"),
        404,
        "Not Found",
        "Thread " + threadId + " not found");
    assertError(
        api.post("/v1/threads/thread_nope/messages", ian.key(), "{\"content\": \"x\"}"),
        404,
        "Not Found",
        "Thread thread_nope not found");
    assertError(
        api.post("/v1/threads/" + threadId + "/messages", ian.key(), "{}"),
        400,
        "Bad Request",
        "content is required");
    operator.answer(ian.namespace(), runName(threadId, 1));
  }

  @Test
  void aMessageToABusyThreadFollowsItsMultitaskStrategy() {
    TestUser kim = shared.newUser("kim");
    String threadId;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", kim.key(), "{\"task\": \"[hold] busy\"}")) {
      threadId = stream.nextEvent().json().get("thread").get("id").asString();
    }
    String messages = "/v1/threads/" + threadId + "/messages";
    assertError(
        api.post(messages, kim.key(), "{\"content\": \"x\", \"multitaskStrategy\": \"later\"}"),
        400,
        "Bad Request",
        "multitaskStrategy must be one of reject, enqueue, interrupt, rollback");
    assertError(
        api.post(messages, kim.key(), "{\"content\": \"x\", \"multitaskStrategy\": \"reject\"}"),
        409,
        "Conflict",
        "Thread is already processing");

    try (SseClient.Stream queued =
        sse.post(
            messages,
            kim.key(),
            "{\"content\": \"[hold] next\", \"multitaskStrategy\": \"enqueue\"}")) {
      assertThat(queued.status()).isEqualTo(200);
    }
    Run second = operator.current(kim.namespace(), runName(threadId, 2));
    assertThat(second.getSpec().getSequence()).isEqualTo(2L);
    assertThat(
            operator.current(kim.namespace(), runName(threadId, 1)).getSpec().getCancelRequested())
        .isNull();

    try (SseClient.Stream interrupting =
        sse.post(
            messages,
            kim.key(),
            "{\"content\": \"[hold] now\", \"multitaskStrategy\": \"rollback\"}")) {
      assertThat(interrupting.status()).isEqualTo(200);
    }
    for (long earlier = 1; earlier <= 2; earlier++) {
      Run superseded = operator.current(kim.namespace(), runName(threadId, earlier));
      assertThat(superseded.getSpec().getCancelRequested()).isTrue();
      assertThat(superseded.getSpec().getSupersededBy()).isEqualTo("rollback");
    }
    assertThat(operator.current(kim.namespace(), runName(threadId, 3)).getSpec().getSupersededBy())
        .isNull();
    // An undone run is none of the thread's messages, even before the operator removes it.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(
                    api.get(messages, kim.key())
                        .json()
                        .get("data")
                        .get(0)
                        .get("content")
                        .asString())
                .isEqualTo("[hold] now"));
    operator.answer(kim.namespace(), runName(threadId, 3));
  }

  private static String createIdleThread(TestUser user) {
    return api.post("/v1/threads", user.key(), "{}").json().get("thread").get("id").asString();
  }

  private static String runName(String threadId, long sequence) {
    return "run-" + threadId.substring("thread_".length()) + "-" + sequence;
  }
}
