package dev.threadline.api.threads;

import static dev.threadline.api.support.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.run.Run;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The message flows over real HTTP: SSE sequences, stream: false, disconnects. */
class ThreadStreamingMockServerTest {
  private static SharedApiServer shared;
  private static ApiClient api;
  private static SseClient sse;
  private static FakeOperator operator;

  @BeforeAll
  static void startServer() {
    shared = SharedApiServer.get();
    api = shared.api();
    sse = new SseClient(shared.baseUrl());
    operator = FakeOperator.on(shared);
  }

  @Test
  void directPathStreamsThreadCreatedDirectResponseCompletedAndStreamCompleted() {
    TestUser alice = shared.newUser("alice");

    try (SseClient.Stream stream = sse.post("/v1/threads", alice.key(),
        "{\"messages\": [{\"role\": \"user\", \"content\": \"Hello there\"}], \"environmentId\": \"env_default\"}")) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.header("Content-Type")).startsWith("text/event-stream");
      assertThat(stream.header("Cache-Control")).isEqualTo("no-cache");
      assertThat(stream.header("X-Accel-Buffering")).isEqualTo("no");
      List<SseClient.Frame> events = stream.remainingEvents();

      assertThat(events).extracting(SseClient.Frame::type)
          .containsExactly("thread.created", "direct.response", "response.completed", "stream.completed");
      assertThat(events).extracting(frame -> Long.parseLong(frame.id())).containsExactly(1L, 2L, 3L, 4L);
      JsonNode thread = events.get(0).json().get("thread");
      String threadId = thread.get("id").asString();
      assertThat(threadId).matches("thread_[a-z0-9]{20}");
      assertThat(thread.get("status").asString()).isEqualTo("running");
      assertThat(thread.get("environmentId").asString()).isEqualTo("env_default");
      JsonNode direct = events.get(1).json();
      assertThat(direct.get("message").asString()).isEqualTo("Echo: Hello there");
      assertThat(direct.get("threadId").asString()).isEqualTo(threadId);
      assertThat(direct.get("userId").asString()).isEqualTo(alice.userId());
      JsonNode response = events.get(2).json().get("response");
      assertThat(response.get("id").asString()).isEqualTo("run_" + threadId.substring("thread_".length()) + "-1");
      assertThat(response.get("thread_id").asString()).isEqualTo(threadId);
      assertThat(response.get("status").asString()).isEqualTo("completed");
      assertThat(response.get("duration_ms").asLong()).isEqualTo(FakeOperator.DURATION_MS);
      assertThat(response.get("usage").get("input_tokens").asLong()).isEqualTo(FakeOperator.INPUT_TOKENS);
      assertThat(response.get("usage").get("output_tokens").asLong()).isEqualTo(FakeOperator.OUTPUT_TOKENS);
      assertThat(response.get("usage").get("cached_tokens").asLong()).isEqualTo(FakeOperator.CACHED_TOKENS);
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
}
