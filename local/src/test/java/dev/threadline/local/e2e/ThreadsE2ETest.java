package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.local.e2e.SseStream.Frame;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Threads over HTTP against the whole local mode: the direct path and the computer path. */
class ThreadsE2ETest {
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  @Test
  void aGreetingTakesTheDirectPathWithExactlyTheDirectSequence() {
    try (SseStream stream =
        fixture.stream(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}")) {
      HttpResponse<?> response = stream.response();
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
      assertThat(response.headers().firstValue("Cache-Control")).contains("no-cache");
      assertThat(response.headers().firstValue("X-Accel-Buffering")).contains("no");

      List<Frame> frames = stream.readAll();
      assertThat(stream.types())
          .containsExactly(
              "thread.created", "direct.response", "response.completed", "stream.completed");
      assertThat(frames).allSatisfy(frame -> assertThat(frame.id()).isNotBlank());
      assertThat(frames.get(0).data().at("/thread/status").asText()).isEqualTo("running");
      assertThat(frames.get(1).data().path("message").asText()).isNotBlank();
      assertThat(frames.get(2).data().at("/response/id").asText()).startsWith("run_");
      assertThat(frames.get(2).data().at("/response/usage/total_tokens").asLong()).isPositive();
    }
  }

  @Test
  void streamFalseReturnsTheThreadAndExecutionThenMessagesAndCountersAgree() {
    var done =
        fixture.post(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"What is 2 + 3 *"
                + " 4?\"}],\"stream\":false}");
    assertThat(done.statusCode()).as(done.body()).isIn(200, 201);
    JsonNode body = json(done.body());
    assertThat(body.at("/thread/status").asText()).isEqualTo("completed");
    assertThat(body.at("/execution/success").asBoolean()).isTrue();
    assertThat(body.at("/execution/response").asText()).contains("14");
    assertThat(body.at("/execution/usage/outputTokens").asLong()).isPositive();

    String threadId = body.at("/thread/id").asText();
    JsonNode messages =
        json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/messages").body());
    assertThat(messages.path("total_count").asInt()).isEqualTo(2);
    assertThat(messages.at("/data/0/role").asText()).isEqualTo("user");
    assertThat(messages.at("/data/1/role").asText()).isEqualTo("assistant");
    assertThat(messages.at("/data/1/outputTokens").asLong()).isPositive();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          JsonNode thread =
              json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId).body()).path("thread");
          assertThat(thread.path("messageCount").asInt()).isEqualTo(2);
          assertThat(thread.path("outputTokens").asLong())
              .isEqualTo(messages.at("/data/1/outputTokens").asLong());
        });
  }

  @Test
  void aTaskWithCommandsRunsOnTheComputerAndAFollowUpSeesItsFiles() {
    String threadId;
    try (SseStream stream =
        fixture.stream(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `echo hello > a.txt` and `cat"
                + " a.txt`\"}]}")) {
      List<Frame> frames = stream.readAll();
      List<String> types = stream.types();
      assertThat(types.subList(0, 4))
          .containsExactly(
              "thread.created", "computer.starting", "response.item.completed", "response.started");
      assertThat(frames.get(2).data().at("/item/type").asText()).isEqualTo("planning");
      assertThat(frames.get(3).data().at("/response/execution_mode").asText())
          .isEqualTo("containerized");
      assertThat(types.subList(types.size() - 2, types.size()))
          .containsExactly("response.completed", "stream.completed");
      List<JsonNode> toolCalls =
          frames.stream()
              .map(Frame::data)
              .filter(data -> data.at("/item/type").asText().equals("tool_call"))
              .toList();
      assertThat(toolCalls).hasSize(2);
      assertThat(toolCalls.get(0).at("/item/tool/command").asText())
          .isEqualTo("echo hello > a.txt");
      assertThat(toolCalls.get(0).at("/item/tool/exit_code").asInt()).isZero();
      assertThat(toolCalls.get(1).at("/item/tool/command").asText()).isEqualTo("cat a.txt");
      assertThat(toolCalls.get(1).at("/item/tool/output").asText()).contains("hello");
      threadId = frames.get(0).data().at("/thread/id").asText();
    }

    var followUp =
        fixture.post(
            ALICE_KEY,
            "/v1/threads/" + threadId + "/messages",
            "{\"content\":\"Run `cat a.txt`\",\"stream\":false}");
    assertThat(followUp.statusCode()).as(followUp.body()).isIn(200, 201);
    assertThat(json(followUp.body()).at("/execution/response").asText()).contains("hello");

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() ->
            fixture
                .local()
                .client()
                .pods()
                .inNamespace("alice")
                .withLabel("threadline.dev/thread", threadId.replaceFirst("_", "-"))
                .list()
                .getItems()
                .isEmpty());
    JsonNode diffs =
        json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/diffs").body()).path("diffs");
    assertThat(diffs.findValuesAsText("path")).contains("a.txt");
    JsonNode logs = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/logs").body());
    assertThat(logs.path("logs").findValuesAsText("eventType")).contains("tool_call");
    assertThat(logs.path("status").asText()).isEqualTo("completed");
  }

  @Test
  void aBusyThreadAnswers409AndCancelEndsTheRunWithinSeconds() {
    try (SseStream stream =
        fixture.stream(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `sleep 30`\"}]}")) {
      Frame started = stream.readUntil(frame -> frame.type().equals("response.started"));
      assertThat(started).isNotNull();
      String threadId = stream.frames().get(0).data().at("/thread/id").asText();

      var busy =
          fixture.post(
              ALICE_KEY, "/v1/threads/" + threadId + "/messages", "{\"content\":\"Hello\"}");
      assertThat(busy.statusCode()).isEqualTo(409);
      assertThat(json(busy.body()).path("error").asText()).isEqualTo("Conflict");

      Instant cancelledAt = Instant.now();
      var cancel = fixture.post(ALICE_KEY, "/v1/threads/" + threadId + "/cancel", "{}");
      assertThat(json(cancel.body()).path("success").asBoolean()).isTrue();
      List<Frame> rest = stream.readAll();
      assertThat(Duration.between(cancelledAt, Instant.now())).isLessThan(Duration.ofSeconds(15));
      assertThat(stream.types()).contains("response.failed").endsWith("stream.completed");
      assertThat(rest).isNotEmpty();
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() ->
              assertThat(
                      json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId).body())
                          .at("/thread/status")
                          .asText())
                  .isEqualTo("cancelled"));
    }
  }

  private static JsonNode json(String body) {
    return Serialization.unmarshal(body, JsonNode.class);
  }
}
