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
import dev.threadline.history.StoredDiff;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a thread remembers: messages, logs, diffs; and cancelling its run. */
class ThreadHistoryMockServerTest extends SharedApiTest {
  @Test
  void messagesListBothSidesOfEachRunInOrderWithPaging() {
    TestUser alice = shared.newUser("alice");
    String id =
        api.post("/v1/threads", alice.key(), "{\"task\": \"one\", \"stream\": false}")
            .json()
            .get("thread")
            .get("id")
            .asString();
    api.post(
        "/v1/threads/" + id + "/messages",
        alice.key(),
        "{\"content\": \"[fail] two\", \"stream\": false}");
    api.post(
        "/v1/threads/" + id + "/messages",
        alice.key(),
        "{\"content\": \"three\", \"stream\": false}");
    String s = id.substring("thread_".length());

    ApiClient.Response all = api.get("/v1/threads/" + id + "/messages", alice.key());

    assertThat(all.json().get("total_count").asInt()).isEqualTo(5);
    assertThat(all.json().get("has_more").asBoolean()).isFalse();
    assertThat(ids(all))
        .containsExactly(
            "msg_" + s + "-1_u",
            "msg_" + s + "-1_a",
            "msg_" + s + "-2_u",
            "msg_" + s + "-3_u",
            "msg_" + s + "-3_a");
    JsonNode user = all.json().get("data").get(0);
    assertThat(user.get("threadId").asString()).isEqualTo(id);
    assertThat(user.get("role").asString()).isEqualTo("user");
    assertThat(user.get("content").asString()).isEqualTo("one");
    assertThat(user.get("createdAt").asString()).endsWith("Z");
    assertThat(user.has("durationMs")).isFalse();
    JsonNode answer = all.json().get("data").get(1);
    assertThat(answer.get("role").asString()).isEqualTo("assistant");
    assertThat(answer.get("content").asString()).isEqualTo("Echo: one");
    assertThat(answer.get("durationMs").asLong()).isEqualTo(FakeOperator.DURATION_MS);
    assertThat(answer.get("inputTokens").asLong()).isEqualTo(FakeOperator.INPUT_TOKENS);
    assertThat(answer.get("outputTokens").asLong()).isEqualTo(FakeOperator.OUTPUT_TOKENS);
    assertThat(answer.has("threadId")).isFalse();
    assertThat(
            api.get("/v1/threads/" + id, alice.key())
                .json()
                .get("thread")
                .get("messageCount")
                .asInt())
        .isEqualTo(5);

    assertThat(ids(api.get("/v1/threads/" + id + "/messages?order=desc&limit=2", alice.key())))
        .containsExactly("msg_" + s + "-3_a", "msg_" + s + "-3_u");
    ApiClient.Response page =
        api.get("/v1/threads/" + id + "/messages?limit=2&offset=2", alice.key());
    assertThat(ids(page)).containsExactly("msg_" + s + "-2_u", "msg_" + s + "-3_u");
    assertThat(page.json().get("has_more").asBoolean()).isTrue();
    assertError(
        api.get("/v1/threads/" + id + "/messages?order=newest", alice.key()),
        400,
        "Bad Request",
        "order must be asc or desc");
    assertError(
        api.get("/v1/threads/" + id + "/messages?limit=101", alice.key()),
        400,
        "Bad Request",
        "limit must be between 1 and 100");
  }

  @Test
  void logsTellEachRunsStoryWithClockTimesAndTotals() {
    TestUser bob = shared.newUser("bob");
    String id =
        api.post(
                "/v1/threads",
                bob.key(),
                "{\"task\": \"[computer] write notes\", \"stream\": false}")
            .json()
            .get("thread")
            .get("id")
            .asString();
    api.post(
        "/v1/threads/" + id + "/messages",
        bob.key(),
        "{\"content\": \"[fail] again\", \"stream\": false}");

    ApiClient.Response response = api.get("/v1/threads/" + id + "/logs", bob.key());

    assertThat(response.status()).isEqualTo(200);
    JsonNode body = response.json();
    assertThat(new ArrayList<>(body.propertyNames()))
        .containsExactly(
            "logs", "threadId", "status", "duration", "totalCost", "inputTokens", "outputTokens");
    assertThat(body.get("threadId").asString()).isEqualTo(id);
    assertThat(body.get("status").asString()).isEqualTo("failed");
    assertThat(body.get("duration").asString())
        .isEqualTo(Long.toString(1500 + FakeOperator.DURATION_MS));
    assertThat(body.get("totalCost").asDouble()).isEqualTo(FakeOperator.COST);
    assertThat(body.get("inputTokens").asLong()).isEqualTo(FakeOperator.INPUT_TOKENS);
    List<String> lines = new ArrayList<>();
    body.get("logs")
        .forEach(entry -> {
          assertThat(entry.get("time").asString()).matches("\\d\\d:\\d\\d:\\d\\d");
          lines.add(
              entry.get("type").asString()
                  + " "
                  + entry.get("eventType").asString()
                  + " "
                  + entry.get("message").asString());
        });
    assertThat(lines)
        .containsExactly(
            "info user_message [computer] write notes",
            "info run_started Routed to computer: the task runs commands (model scripted)",
            "info run_started Agent started (model scripted)",
            "info planning List the files, then write notes.txt",
            "info setup Workspace ready",
            "info reasoning I will run ls first",
            "info tool_call $ ls → exit 0 (12 ms)",
            "info file_change Created notes.txt (+1)",
            "error error A transient hiccup; retried",
            "info agent_message Done: notes.txt written",
            "info run_completed Completed in 1500 ms (12 input, 7 output tokens)",
            "info user_message [fail] again",
            "info run_started Routed to direct: a question the model can answer (model scripted)",
            "error run_failed Failed (execution_failed): Model unavailable");
  }

  @Test
  void diffsKeepTheLatestChangePerPath() {
    TestUser carol = shared.newUser("carol");
    String id =
        api.post("/v1/threads", carol.key(), "{}").json().get("thread").get("id").asString();
    assertThat(api.get("/v1/threads/" + id + "/diffs", carol.key()).body())
        .isEqualTo("{\"diffs\":[]}");

    holdAndComplete(
        carol,
        id,
        1,
        List.of(
            diff("a.txt", "create", "hi\n", null, null),
            diff("b.txt", "create", "bye\n", null, null)));
    holdAndComplete(
        carol,
        id,
        2,
        List.of(
            diff("a.txt", "modify", null, 3L, 1L),
            diff("b.txt", "delete", null, null, null),
            diff("c.txt", "create", "new\n", null, null)));

    // The fake operator writes the diffs in a second patch, after the stream has already ended.
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .untilAsserted(() -> {
          JsonNode diffs = api.get("/v1/threads/" + id + "/diffs", carol.key()).json().get("diffs");
          assertThat(diffs.toString())
              .isEqualTo(
                  "[{\"path\":\"a.txt\",\"type\":\"modify\",\"additions\":3,\"deletions\":1},"
                      + "{\"path\":\"c.txt\",\"type\":\"create\",\"content\":\"new\\n\"}]");
        });
  }

  @Test
  void cancelMarksTheActiveRunAndSaysSoWhenThereIsNone() {
    TestUser dave = shared.newUser("dave");
    String id;
    try (SseClient.Stream stream =
        sse.post("/v1/threads", dave.key(), "{\"task\": \"[hold] slow\"}")) {
      id = stream.nextEvent().json().get("thread").get("id").asString();
    }
    String runName = "run-" + id.substring("thread_".length()) + "-1";

    ApiClient.Response cancelled = api.post("/v1/threads/" + id + "/cancel", dave.key(), "{}");

    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.body())
        .isEqualTo(
            "{\"success\":true,\"threadId\":\""
                + id
                + "\",\"message\":\"Cancellation requested\"}");
    Run run =
        shared.client().resources(Run.class).inNamespace(dave.namespace()).withName(runName).get();
    assertThat(run.getSpec().getCancelRequested()).isTrue();
    assertThat(run.getSpec().getMessage()).isEqualTo("[hold] slow");

    operator.answer(dave.namespace(), runName);
    await()
        .untilAsserted(() ->
            assertThat(
                    api.get("/v1/threads/" + id, dave.key())
                        .json()
                        .get("thread")
                        .get("status")
                        .asString())
                .isEqualTo("completed"));
    assertThat(api.post("/v1/threads/" + id + "/cancel", dave.key(), "{}").body())
        .isEqualTo(
            "{\"success\":false,\"threadId\":\""
                + id
                + "\",\"message\":\"Thread is not processing\"}");
    String idle =
        api.post("/v1/threads", dave.key(), "{}").json().get("thread").get("id").asString();
    assertThat(
            api.post("/v1/threads/" + idle + "/cancel", dave.key(), "{}")
                .json()
                .get("success")
                .asBoolean())
        .isFalse();
  }

  private static void holdAndComplete(
      TestUser user, String threadId, int sequence, List<StoredDiff> diffs) {
    try (SseClient.Stream stream =
        sse.post(
            "/v1/threads/" + threadId + "/messages",
            user.key(),
            "{\"content\": \"[hold] change files " + sequence + "\"}")) {
      assertThat(stream.status()).isEqualTo(200);
      operator.complete(
          user.namespace(),
          "run-" + threadId.substring("thread_".length()) + "-" + sequence,
          diffs);
      assertThat(stream.remainingEvents())
          .extracting(SseClient.Frame::type)
          .endsWith("response.completed", "stream.completed");
    }
  }

  private static StoredDiff diff(
      String path, String type, String content, Long additions, Long deletions) {
    return new StoredDiff(path, type, content, additions, deletions);
  }

  private static List<String> ids(ApiClient.Response list) {
    List<String> ids = new ArrayList<>();
    list.json().get("data").forEach(item -> ids.add(item.get("id").asString()));
    return ids;
  }
}
