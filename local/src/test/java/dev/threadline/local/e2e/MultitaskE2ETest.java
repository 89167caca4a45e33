package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.local.e2e.SseStream.Frame;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A second message while a thread works ({@code multitaskStrategy} on {@code POST …/messages}), end
 * to end: the first message is a slow computer run (the scripted model runs its backticked
 * commands), the second follows 50 ms later — after the first's first command for the strategies
 * that stop it, so that there is work to keep or undo.
 */
class MultitaskE2ETest {
  @RegisterExtension static final LocalModeFixture fixture = LocalModeFixture.perClass();

  private static final Duration SETTLED = Duration.ofSeconds(30);

  /** The contract's follow-up sequences (no thread.created); the computer's inside the general. */
  private static final List<String> FOLLOW_UP_COMPUTER_START =
      List.of(
          "response.created", "computer.starting", "response.item.completed", "response.started");

  private static final List<String> FOLLOW_UP_DIRECT =
      List.of(
          "response.created",
          "response.output_item.added",
          "response.item.completed",
          "response.completed",
          "stream.completed");

  @Test
  void withoutTheFieldASecondMessageIsTheContracts409AndTheFirstGoesOnUntouched() {
    String threadId = emptyThread();
    try (SseStream first = message(threadId, "Run `echo one > a.txt` and `sleep 2`", null)) {
      pause();
      HttpResponse<String> second =
          fixture.post(
              ALICE_KEY, "/v1/threads/" + threadId + "/messages", "{\"content\":\"Run `ls`\"}");
      assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
      assertThat(json(second.body()).path("error").asText()).isEqualTo("Conflict");
      assertThat(json(second.body()).path("message").asText())
          .isEqualTo("Thread is already processing");
      HttpResponse<String> rejected =
          fixture.post(
              ALICE_KEY,
              "/v1/threads/" + threadId + "/messages",
              "{\"content\":\"Run `ls`\",\"multitaskStrategy\":\"reject\"}");
      assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(409);

      first.readAll();
      assertComputerFollowUp(first.types(), "response.completed");
    }
    assertThat(roles(threadId)).containsExactly("user", "assistant");
  }

  @Test
  void aBadStrategyIsA400NamingTheField() {
    String threadId = emptyThread();
    HttpResponse<String> response =
        fixture.post(
            ALICE_KEY,
            "/v1/threads/" + threadId + "/messages",
            "{\"content\":\"Hello\",\"multitaskStrategy\":\"later\"}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(json(response.body()).path("message").asText())
        .contains("multitaskStrategy")
        .contains("reject, enqueue, interrupt, rollback");
  }

  @Test
  void enqueueRunsTheSecondMessageAfterTheFirstAndItsStreamStartsThen() {
    String threadId = emptyThread();
    try (SseStream first = message(threadId, "Run `echo one > a.txt` and `sleep 2`", null)) {
      pause();
      try (SseStream second =
          message(threadId, "Run `echo two >> a.txt` and `cat a.txt`", "enqueue")) {
        assertThat(second.response().statusCode()).isEqualTo(200);
        first.readAll();
        assertComputerFollowUp(first.types(), "response.completed");

        second.readAll();
        assertComputerFollowUp(second.types(), "response.completed");
        assertThat(toolOutputs(second)).last().asString().contains("one\ntwo");
      }
    }
    JsonNode messages = messages(threadId);
    assertThat(roles(threadId)).containsExactly("user", "assistant", "user", "assistant");
    assertThat(messages.at("/data/0/content").asText()).contains("echo one");
    assertThat(messages.at("/data/2/content").asText()).contains("echo two");
    assertThat(diffs(threadId))
        .singleElement()
        .satisfies(diff -> {
          assertThat(diff.path("path").asText()).isEqualTo("a.txt");
          assertThat(diff.path("type").asText()).isEqualTo("modify");
          assertThat(diff.path("additions").asInt()).isEqualTo(1);
        });
  }

  @Test
  void enqueueHoldsAtMostTheBoundOfWaitingMessages() {
    String threadId = emptyThread();
    List<SseStream> streams = new ArrayList<>();
    try {
      streams.add(message(threadId, "Run `sleep 3`", null));
      for (int i = 0; i < 10; i++) {
        streams.add(message(threadId, "Hello " + i, "enqueue"));
      }
      HttpResponse<String> over =
          fixture.post(
              ALICE_KEY,
              "/v1/threads/" + threadId + "/messages",
              "{\"content\":\"One too many\",\"multitaskStrategy\":\"enqueue\"}");
      assertThat(over.statusCode()).as(over.body()).isEqualTo(429);
      assertThat(json(over.body()).path("message").asText()).contains("10 messages waiting");

      for (int i = 1; i < streams.size(); i++) {
        streams.get(i).readAll();
        assertThat(streams.get(i).types()).containsExactlyElementsOf(FOLLOW_UP_DIRECT);
      }
    } finally {
      streams.forEach(SseStream::close);
    }
    JsonNode messages = messages(threadId);
    assertThat(messages.path("total_count").asInt()).isEqualTo(22);
    for (int i = 0; i < 10; i++) {
      assertThat(messages.at("/data/" + (2 + 2 * i) + "/content").asText()).isEqualTo("Hello " + i);
    }
  }

  @Test
  void interruptCancelsTheFirstKeepingWhatItDidAndTheSecondRunsWithIt() {
    String threadId = emptyThread();
    try (SseStream first =
        message(
            threadId, "Run `echo one > a.txt` and `sleep 5` and `echo late > late.txt`", null)) {
      awaitFirstCommand(first);
      pause();
      try (SseStream second = message(threadId, "Run `cat a.txt` and `ls`", "interrupt")) {
        first.readAll();
        assertComputerFollowUp(first.types(), "response.failed");

        second.readAll();
        assertComputerFollowUp(second.types(), "response.completed");
        List<String> outputs = toolOutputs(second);
        assertThat(outputs.get(0)).contains("one");
        assertThat(outputs.get(1)).contains("a.txt").doesNotContain("late.txt");
      }
    }
    JsonNode messages = messages(threadId);
    assertThat(roles(threadId)).containsExactly("user", "user", "assistant");
    assertThat(messages.at("/data/0/content").asText()).contains("echo one");
    assertThat(messages.at("/data/1/content").asText()).contains("cat a.txt");
    assertThat(logs(threadId)).anyMatch(line -> line.contains("echo one > a.txt"));
    assertThat(fixture.local().history().runs().ofThread(namespace(), threadName(threadId)))
        .hasSize(2);
    assertThat(diffs(threadId))
        .singleElement()
        .satisfies(diff -> {
          assertThat(diff.path("path").asText()).isEqualTo("a.txt");
          assertThat(diff.path("type").asText()).isEqualTo("create");
          assertThat(diff.path("content").asText()).isEqualTo("one\n");
        });
  }

  @Test
  void rollbackCancelsTheFirstAndUndoesItsHistoryAndWorkspace() {
    String threadId = emptyThread();
    HttpResponse<String> kept =
        fixture.post(
            ALICE_KEY,
            "/v1/threads/" + threadId + "/messages",
            "{\"content\":\"Run `echo kept > kept.txt`\",\"stream\":false}");
    assertThat(kept.statusCode()).as(kept.body()).isEqualTo(200);
    try (SseStream first =
        message(
            threadId, "Run `echo one > a.txt` and `echo changed > kept.txt` and `sleep 5`", null)) {
      awaitFirstCommand(first);
      first.readUntil(frame -> isToolCall(frame, "echo changed > kept.txt"));
      pause();
      try (SseStream second =
          message(threadId, "Run `ls` and `cat kept.txt` and `echo two > b.txt`", "rollback")) {
        first.readAll();
        assertThat(first.types()).contains("response.failed");

        second.readAll();
        assertComputerFollowUp(second.types(), "response.completed");
        List<String> outputs = toolOutputs(second);
        assertThat(outputs.get(0)).contains("kept.txt").doesNotContain("a.txt");
        assertThat(outputs.get(1)).contains("kept").doesNotContain("changed");
      }
    }
    await()
        .atMost(SETTLED)
        .untilAsserted(() ->
            assertThat(roles(threadId)).containsExactly("user", "assistant", "user", "assistant"));
    JsonNode messages = messages(threadId);
    assertThat(messages.at("/data/0/content").asText()).contains("echo kept");
    assertThat(messages.at("/data/2/content").asText()).contains("echo two > b.txt");
    assertThat(logs(threadId)).noneMatch(line -> line.contains("echo one > a.txt"));
    assertThat(diffs(threadId))
        .extracting(diff -> diff.path("path").asText())
        .containsExactly("b.txt", "kept.txt");
    await()
        .atMost(SETTLED)
        .until(() ->
            fixture
                    .local()
                    .client()
                    .resources(Run.class)
                    .inNamespace(namespace())
                    .withName(runName(threadId, 2))
                    .get()
                == null);
    assertThat(fixture.local().history().runs().ofThread(namespace(), threadName(threadId)))
        .extracting(record -> record.key().run())
        .containsExactly(runName(threadId, 1), runName(threadId, 3));
  }

  @Test
  void rollbackOfAMessageThatHadNotStartedLeavesNoTraceOfIt() {
    String threadId = emptyThread();
    try (SseStream first = message(threadId, "Run `echo one > a.txt` and `sleep 2`", null)) {
      pause();
      try (SseStream second = message(threadId, "What is 2 + 3?", "rollback")) {
        first.readAll();
        second.readAll();
        assertThat(second.types()).containsExactlyElementsOf(FOLLOW_UP_DIRECT);
      }
    }
    await()
        .atMost(SETTLED)
        .untilAsserted(() -> assertThat(roles(threadId)).containsExactly("user", "assistant"));
    assertThat(messages(threadId).at("/data/0/content").asText()).isEqualTo("What is 2 + 3?");
    assertThat(diffs(threadId)).isEmpty();
  }

  private static void assertComputerFollowUp(List<String> types, String end) {
    assertThat(types).doesNotContain("thread.created");
    assertThat(types.subList(0, 4)).containsExactlyElementsOf(FOLLOW_UP_COMPUTER_START);
    assertThat(types.subList(types.size() - 2, types.size()))
        .containsExactly(end, "stream.completed");
  }

  private static void awaitFirstCommand(SseStream stream) {
    assertThat(stream.readUntil(frame -> isToolCall(frame, "echo one > a.txt"))).isNotNull();
  }

  private static boolean isToolCall(Frame frame, String command) {
    return frame.data().at("/item/type").asText().equals("tool_call")
        && frame.data().at("/item/tool/command").asText().equals(command);
  }

  private static List<String> toolOutputs(SseStream stream) {
    return stream.frames().stream()
        .filter(frame -> frame.data().at("/item/type").asText().equals("tool_call"))
        .map(frame -> frame.data().at("/item/tool/output").asText())
        .toList();
  }

  /** The 50 ms between the two messages. */
  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String emptyThread() {
    HttpResponse<String> created = fixture.post(ALICE_KEY, "/v1/threads", "{}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return json(created.body()).at("/thread/id").asText();
  }

  private static SseStream message(String threadId, String content, String strategy) {
    String body =
        strategy == null
            ? "{\"content\":\"" + content + "\"}"
            : "{\"content\":\"" + content + "\",\"multitaskStrategy\":\"" + strategy + "\"}";
    SseStream stream = fixture.stream(ALICE_KEY, "/v1/threads/" + threadId + "/messages", body);
    assertThat(stream.response().statusCode()).isEqualTo(200);
    return stream;
  }

  private static JsonNode messages(String threadId) {
    return json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/messages?limit=100").body());
  }

  private static List<String> roles(String threadId) {
    List<String> roles = new ArrayList<>();
    messages(threadId).path("data").forEach(message -> roles.add(message.path("role").asText()));
    return roles;
  }

  private static List<JsonNode> diffs(String threadId) {
    List<JsonNode> diffs = new ArrayList<>();
    json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/diffs").body())
        .path("diffs")
        .forEach(diffs::add);
    return diffs;
  }

  private static List<String> logs(String threadId) {
    List<String> lines = new ArrayList<>();
    json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId + "/logs").body())
        .path("logs")
        .forEach(entry -> lines.add(entry.path("message").asText()));
    return lines;
  }

  private static String namespace() {
    return "alice";
  }

  private static String threadName(String threadId) {
    return ResourceIds.toName(threadId).orElseThrow();
  }

  private static String runName(String threadId, long sequence) {
    return dev.threadline.core.threads.ThreadRuns.runName(threadName(threadId), sequence);
  }

  private static JsonNode json(String body) {
    return Serialization.unmarshal(body, JsonNode.class);
  }
}
