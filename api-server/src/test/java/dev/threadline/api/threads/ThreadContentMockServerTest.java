package dev.threadline.api.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.SharedApiTest;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.StoredDiff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Conversation content is read from the history store, whole, however large: a message of the
 * contract's largest size travels in the Run as a preview and a reference, its answer as a preview;
 * messages, logs, diffs and {@code stream: false} answer with everything. And a user's history has
 * a quota.
 */
class ThreadContentMockServerTest extends SharedApiTest {
  private static final int DIFFS = 500;

  @Test
  void aLongMessageAndARunWithFiveHundredDiffsReadWholeFromTheStore() {
    TestUser alice = shared.newUser("alice");
    String message = longText("question", ThreadRules.MAX_MESSAGE);
    ApiClient.Response created =
        api.post("/v1/threads", alice.key(), "{\"task\": \"" + message + "\", \"stream\": false}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String id = created.json().get("thread").get("id").asString();
    String suffix = id.substring("thread_".length());
    // stream:false answers with the whole answer, not the Run's preview
    assertThat(created.json().get("execution").get("response").asString())
        .isEqualTo("Echo: " + message);

    Run first = run(alice, "run-" + suffix + "-1");
    assertThat(first.getSpec().getMessage()).hasSize(RunSpec.INLINE_MESSAGE);
    assertThat(message).startsWith(first.getSpec().getMessage());
    assertThat(
            shared
                .history()
                .messageBodies()
                .read(alice.namespace(), first.getSpec().getMessageRef()))
        .contains(message);
    assertThat(first.getStatus().getResponse())
        .hasSizeLessThanOrEqualTo(RunStatus.RESPONSE_PREVIEW);

    List<StoredDiff> diffs = new ArrayList<>();
    for (int n = 0; n < DIFFS; n++) {
      diffs.add(
          new StoredDiff(
              String.format("src/file-%03d.txt", n), "create", "line " + n + "\n", null, null));
    }
    try (SseClient.Stream stream =
        sse.post(
            "/v1/threads/" + id + "/messages",
            alice.key(),
            "{\"content\": \"" + FakeOperator.HOLD + " write the files\"}")) {
      assertThat(stream.status()).isEqualTo(200);
      operator.complete(alice.namespace(), "run-" + suffix + "-2", diffs);
      assertThat(stream.remainingEvents())
          .extracting(SseClient.Frame::type)
          .endsWith("response.completed", "stream.completed");
    }
    Run second = run(alice, "run-" + suffix + "-2");
    assertThat(second.getStatus().getDiffCount()).isEqualTo(DIFFS);

    JsonNode messages = api.get("/v1/threads/" + id + "/messages", alice.key()).json().get("data");
    assertThat(messages).hasSize(4);
    assertThat(messages.get(0).get("content").asString()).isEqualTo(message);
    assertThat(messages.get(1).get("content").asString()).isEqualTo("Echo: " + message);

    JsonNode logs = api.get("/v1/threads/" + id + "/logs", alice.key()).json().get("logs");
    List<String> lines = new ArrayList<>();
    logs.forEach(line -> lines.add(line.get("message").asString()));
    assertThat(lines).contains(message, "Echo: " + message);

    JsonNode listed = api.get("/v1/threads/" + id + "/diffs", alice.key()).json().get("diffs");
    assertThat(listed).hasSize(DIFFS);
    assertThat(listed.get(0).get("path").asString()).isEqualTo("src/file-000.txt");
    assertThat(listed.get(DIFFS - 1).get("content").asString())
        .isEqualTo("line " + (DIFFS - 1) + "\n");
  }

  @Test
  void aNewMessageBeyondTheUsersHistoryQuotaIsRefusedNamingTheLimit() {
    TestUser bob = shared.newUser("bob");
    String id =
        api.post("/v1/threads", bob.key(), "{\"task\": \"hello\", \"stream\": false}")
            .json()
            .get("thread")
            .get("id")
            .asString();
    // What earlier runs left: the user's history is at its quota.
    long kept = shared.history().usage().bytes(bob.namespace());
    shared
        .history()
        .messageBodies()
        .write(
            bob.namespace(),
            "thread-elsewhere",
            UUID.randomUUID().toString(),
            "x".repeat((int) (SharedApiServer.HISTORY_BYTES - kept - 64 - 10)));

    ApiClient.Response refused =
        api.post(
            "/v1/threads/" + id + "/messages",
            bob.key(),
            "{\"content\": \"a message of more than ten bytes\", \"stream\": false}");
    assertThat(refused.status()).as(refused.body()).isEqualTo(403);
    assertThat(refused.text("error")).isEqualTo("Forbidden");
    assertThat(refused.text("code")).isEqualTo("limit_exceeded");
    assertThat(refused.text("message"))
        .contains("at most " + SharedApiServer.HISTORY_BYTES + " bytes of conversation history")
        .contains("THREADLINE_LIMITS_HISTORYBYTES");
    ApiClient.Response newThread =
        api.post("/v1/threads", bob.key(), "{\"task\": \"another long question\"}");
    assertThat(newThread.status()).isEqualTo(403);
    assertThat(shared.client().resources(Run.class).inNamespace(bob.namespace()).list().getItems())
        .hasSize(1);
    // Deleting a thread frees its share.
    String full =
        api.post("/v1/threads", bob.key(), "{}").json().get("thread").get("id").asString();
    long before = shared.history().usage().bytes(bob.namespace());
    shared
        .history()
        .messageBodies()
        .write(
            bob.namespace(),
            "thread-" + full.substring("thread_".length()),
            UUID.randomUUID().toString(),
            "y".repeat(1_000));
    assertThat(shared.history().usage().bytes(bob.namespace())).isEqualTo(before + 1_064);
    assertThat(api.delete("/v1/threads/" + full, bob.key()).status()).isEqualTo(200);
    assertThat(shared.history().usage().bytes(bob.namespace())).isEqualTo(before);
    // A short message still fits.
    assertThat(
            api.post(
                    "/v1/threads/" + id + "/messages",
                    bob.key(),
                    "{\"content\": \"ok\", \"stream\": false}")
                .status())
        .isEqualTo(200);
  }

  private static Run run(TestUser user, String name) {
    return await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                shared
                    .client()
                    .resources(Run.class)
                    .inNamespace(user.namespace())
                    .withName(name)
                    .get(),
            run -> run != null && run.getStatus() != null && run.getStatus().getPhase() != null);
  }

  /** {@code length} characters of words, as JSON needs no escaping for. */
  private static String longText(String word, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int n = 0; text.length() < length; n++) {
      text.append(word).append(n).append(' ');
    }
    text.setLength(length - 1);
    return text.append('.').toString();
  }
}
