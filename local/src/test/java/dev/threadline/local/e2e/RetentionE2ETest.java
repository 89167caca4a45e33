package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.operator.retention.RetentionSettings;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With retention set to seconds, runs and then their idle thread leave the Kubernetes API; REST
 * goes on serving all of it from the history store, a follow-up brings the thread back with its
 * whole history, and kubectl lists live objects only.
 */
class RetentionE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final LocalModeFixture fixture =
      LocalModeFixture.perClass(settings ->
          settings.withRetention(
              new RetentionSettings(Duration.ofSeconds(1), Duration.ofSeconds(5))));

  @Test
  void archivedRunsAndThreadsAnswerAsBeforeAndAFollowUpBringsTheThreadBack() throws Exception {
    String threadId;
    List<String> firstStream;
    String firstCursor;
    try (SseStream stream =
        fixture.stream(
            ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `echo kept > a.txt` and `cat"
                + " a.txt`\"}]}")) {
      stream.readAll();
      firstStream = stream.types();
      threadId = stream.frames().getFirst().data().at("/thread/id").asText();
      // The id of the event after thread.created: where a client that lost the stream resumes.
      firstCursor = stream.frames().get(1).id();
    }
    var second =
        fixture.post(
            ALICE_KEY,
            "/v1/threads/" + threadId + "/messages",
            "{\"content\":\"Hello!\",\"stream\":false}");
    assertThat(second.statusCode()).as(second.body()).isIn(200, 201);
    String name = threadId.replaceFirst("_", "-");
    JsonNode before = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId)).path("thread");
    JsonNode messagesBefore = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/messages"));

    // The runs leave the API, then the thread.
    await().atMost(Duration.ofSeconds(60)).until(() -> runsOf(name).isEmpty());
    assertThat(answered(threadId)).isEqualTo(4).isEqualTo(before.path("messageCount").asLong());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() ->
            fixture
                    .local()
                    .client()
                    .resources(ConversationThread.class)
                    .inNamespace("alice")
                    .withName(name)
                    .get()
                == null);
    assertThat(kubectl("get", "threads", "-o", "name")).doesNotContain(name);
    // Nothing of the thread is left in the API: its workspace claim went with it.
    assertThat(
            fixture
                .local()
                .client()
                .persistentVolumeClaims()
                .inNamespace("alice")
                .withLabel("threadline.dev/thread", name)
                .list()
                .getItems())
        .isEmpty();

    // A client reconnecting with the Last-Event-ID of the first run, which left the API: the rest
    // of that run replays from the history store, as for a live finished run.
    List<String> afterCursor = firstStream.subList(2, firstStream.size());
    try (SseFrames resumed =
        fixture.frames(
            fixture
                .request(ALICE_KEY, "/v1/threads")
                .header("Content-Type", "application/json")
                .header("Last-Event-ID", firstCursor)
                .POST(HttpRequest.BodyPublishers.ofString("{\"task\":\"ignored\"}")))) {
      assertThat(resumed.rest()).extracting(SseFrames.Frame::type).isEqualTo(afterCursor);
    }
    try (SseFrames resumed =
        fixture.frames(
            fixture
                .request(ALICE_KEY, "/v1/threads/" + threadId + "/messages")
                .header("Content-Type", "application/json")
                .header("Last-Event-ID", firstCursor)
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"ignored\"}")))) {
      assertThat(resumed.rest()).extracting(SseFrames.Frame::type).isEqualTo(afterCursor);
    }
    try (SseFrames resumed =
        fixture.frames(
            fixture
                .request(ALICE_KEY, "/v1/threads/" + threadId + "/stream")
                .header("Last-Event-ID", firstCursor)
                .GET())) {
      assertThat(resumed.rest()).extracting(SseFrames.Frame::type).isEqualTo(afterCursor);
    }

    // REST answers as before.
    JsonNode after = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId)).path("thread");
    assertThat(after.path("messageCount").asLong()).isEqualTo(4);
    assertThat(after.path("status").asText()).isEqualTo(before.path("status").asText());
    assertThat(after.path("createdAt").asText()).isEqualTo(before.path("createdAt").asText());
    assertThat(json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/messages")))
        .isEqualTo(messagesBefore);
    JsonNode logs = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/logs"));
    assertThat(logs.path("logs").findValuesAsText("eventType")).contains("tool_call");
    JsonNode diffs = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/diffs"));
    assertThat(diffs.path("diffs").findValuesAsText("path")).contains("a.txt");
    JsonNode listed = json(fixture.get(ALICE_KEY, "/v1/threads?limit=100"));
    assertThat(listed.path("data").findValuesAsText("id")).contains(threadId);
    try (SseFrames replay =
        fixture.frames(fixture.request(ALICE_KEY, "/v1/threads/" + threadId + "/stream").GET())) {
      assertThat(replay.rest())
          .extracting(SseFrames.Frame::type)
          // The follow-up's sequence (a message posted to a thread), replayed whole.
          .containsExactly(
              "response.created",
              "response.output_item.added",
              "response.item.completed",
              "response.completed",
              "stream.completed");
    }

    // A follow-up brings it back, with the whole conversation.
    var followUp =
        fixture.post(
            ALICE_KEY,
            "/v1/threads/" + threadId + "/messages",
            "{\"content\":\"What did I say before?\",\"stream\":false}");
    assertThat(followUp.statusCode()).as(followUp.body()).isIn(200, 201);
    assertThat(JSON.readTree(followUp.body()).at("/execution/response").asText())
        .contains("Hello!");
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() ->
            assertThat(fixture.local().history().runs().ofThread("alice", name))
                .extracting(record -> record.sequence())
                .containsExactly(1L, 2L, 3L));
    JsonNode revived = json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId)).path("thread");
    assertThat(revived.path("messageCount").asLong()).isEqualTo(6);
    assertThat(json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/messages")).path("data"))
        .hasSize(6);

    // DELETE removes the history too.
    assertThat(fixture.delete(ALICE_KEY, "/v1/threads/" + threadId).statusCode()).isEqualTo(200);
    assertThat(fixture.get(ALICE_KEY, "/v1/threads/" + threadId).statusCode()).isEqualTo(404);
    assertThat(fixture.local().history().runs().ofThread("alice", name)).isEmpty();
    assertThat(firstStream).contains("computer.starting");
  }

  private static long answered(String threadId) throws IOException {
    return json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId))
        .path("thread")
        .path("messageCount")
        .asLong();
  }

  private static List<Run> runsOf(String thread) {
    return fixture
        .local()
        .client()
        .resources(Run.class)
        .inNamespace("alice")
        .withLabel("threadline.dev/thread", thread)
        .list()
        .getItems();
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static String kubectl(String... args) throws IOException, InterruptedException {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                "kubectl", "--kubeconfig", fixture.local().kubeconfig().toString(), "-n", "alice"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output.strip();
  }
}
