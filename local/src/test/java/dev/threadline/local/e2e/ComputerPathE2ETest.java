package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.thread.ConversationThread;
import dev.threadline.crds.thread.ThreadSpec;
import dev.threadline.history.History;
import dev.threadline.operator.computer.AgentPodSettings;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.support.RunLogs;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The computer path end to end in local mode: the operator's agent Pods run the real runner (with
 * the offline scripted model, which runs the task's backticked commands) as host processes, their
 * logs become the Runs' events, and the thread's workspace outlives each Pod.
 */
class ComputerPathE2ETest {
  private static final String NS = "alice";
  private static final Duration RUN_TIME = Duration.ofSeconds(60);
  private static LocalModeFixture fixture;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    fixture = LocalModeFixture.start();
    client = fixture.local().client();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void commandsRunInTheWorkspaceWhichTheNextMessageOfTheThreadSees() {
    ConversationThread thread = createThread(client, "thread-e2e-files");
    createRun(client, thread, 1, "Run `echo hello > a.txt` and `cat a.txt`");

    Run first = awaitEnded(client, "run-e2e-files-1", RUN_TIME);
    assertThat(first.getStatus().getPhase())
        .as(String.valueOf(first.getStatus().getError()))
        .isEqualTo("completed");
    assertThat(first.getStatus().getRoute()).isEqualTo("computer");
    List<JsonNode> tools = toolCalls(first);
    assertThat(tools)
        .anySatisfy(tool -> {
          assertThat(tool.path("command").asText()).isEqualTo("echo hello > a.txt");
          assertThat(tool.path("exit_code").asInt()).isZero();
        });
    assertThat(tools)
        .anySatisfy(tool -> {
          assertThat(tool.path("command").asText()).isEqualTo("cat a.txt");
          assertThat(tool.path("output").asText()).contains("hello");
          assertThat(tool.path("exit_code").asInt()).isZero();
        });
    assertThat(RunLogs.types(fixture.local().history(), first))
        .startsWith("started")
        .endsWith("result");
    assertThat(first.getStatus().getDiffCount()).isEqualTo(1L);
    assertThat(fixture.local().history().diffs().ofRun(RunEventLog.key(first)))
        .anySatisfy(diff -> {
          assertThat(diff.path()).isEqualTo("a.txt");
          assertThat(diff.change()).isEqualTo("create");
          assertThat(diff.content()).isEqualTo("hello\n");
        });
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> client.pods().inNamespace(NS).withName("run-e2e-files-1").get() == null);

    createRun(client, thread, 2, "Run `cat a.txt`");
    Run second = awaitEnded(client, "run-e2e-files-2", RUN_TIME);
    assertThat(second.getStatus().getPhase()).isEqualTo("completed");
    assertThat(toolCalls(second))
        .anySatisfy(tool -> {
          assertThat(tool.path("command").asText()).isEqualTo("cat a.txt");
          assertThat(tool.path("output").asText()).contains("hello");
        });
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() ->
            assertThat(
                    client
                        .resources(ConversationThread.class)
                        .inNamespace(NS)
                        .withName("thread-e2e-files")
                        .get()
                        .getStatus()
                        .getMessageCount())
                .isEqualTo(4L));
  }

  @Test
  void anInlineAttachmentIsPlacedInTheWorkspaceOfTheRunnerProcess() {
    String content =
        Base64.getEncoder()
            .encodeToString("from the attachment\n".getBytes(StandardCharsets.UTF_8));
    var response =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/v1/threads",
            """
            {"task": "Run `cat attachments/notes.txt`", "stream": false,
             "attachments": [{"name": "notes.txt", "mediaType": "text/plain", "content": "%s"}]}\
            """
                .formatted(content));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(response.body()).contains("\"success\":true");
    String threadName =
        response.body().replaceAll("(?s).*?\"id\":\"thread_([^\"]+)\".*", "thread-$1");
    Run run =
        client
            .resources(Run.class)
            .inNamespace(NS)
            .withName(ThreadRuns.runName(threadName, 1))
            .get();
    assertThat(toolCalls(run))
        .anySatisfy(tool -> {
          assertThat(tool.path("command").asText()).isEqualTo("cat attachments/notes.txt");
          assertThat(tool.path("output").asText()).contains("from the attachment");
          assertThat(tool.path("exit_code").asInt()).isZero();
        });
  }

  @Test
  void aRunningCommandIsCancelledWithinSeconds() {
    ConversationThread thread = createThread(client, "thread-e2e-cancel");
    createRun(client, thread, 1, "Run `sleep 30`");
    await()
        .atMost(RUN_TIME)
        .until(() -> {
          Run run = client.resources(Run.class).inNamespace(NS).withName("run-e2e-cancel-1").get();
          return run.getStatus() != null
              && RunLogs.types(fixture.local().history(), run).contains("planning");
        });

    Instant asked = Instant.now();
    // A merge patch carries no resourceVersion: it does not race the status writes of the running
    // run.
    client
        .resources(Run.class)
        .inNamespace(NS)
        .withName("run-e2e-cancel-1")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"cancelRequested\":true}}");
    Run cancelled = awaitEnded(client, "run-e2e-cancel-1", Duration.ofSeconds(15));
    assertThat(Duration.between(asked, Instant.now())).isLessThan(Duration.ofSeconds(10));
    assertThat(cancelled.getStatus().getPhase()).isEqualTo("cancelled");
    assertThat(cancelled.getStatus().getError().getCode()).isEqualTo("cancelled");
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> client.pods().inNamespace(NS).withName("run-e2e-cancel-1").get() == null);
  }

  @Test
  void aRunLongerThanTheDeadlineEndsWithExecutionTimeout() {
    try (LocalModeFixture shortDeadline =
        LocalModeFixture.start(settings ->
            settings.withAgentPod(
                AgentPodSettings.defaults().withDeadline(Duration.ofSeconds(2))))) {
      // Over HTTP, as a client sees it: the stream ends with response.failed / execution_timeout.
      try (SseStream stream =
          shortDeadline.stream(
              LocalModeFixture.ALICE_KEY,
              "/v1/threads",
              "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `sleep 30`\"}]}")) {
        List<SseStream.Frame> frames = stream.readAll();
        assertThat(stream.types()).endsWith("response.failed", "stream.completed");
        JsonNode failed = frames.get(frames.size() - 2).data().path("response");
        assertThat(failed.at("/error/code").asText()).isEqualTo("execution_timeout");
        assertThat(failed.path("status").asText()).isEqualTo("failed");
        String threadId = frames.get(0).data().at("/thread/id").asText();

        Run run =
            shortDeadline
                .local()
                .client()
                .resources(Run.class)
                .inNamespace(NS)
                .withName(ThreadRuns.runName(ResourceIds.toName(threadId).orElseThrow(), 1))
                .get();
        assertThat(run.getStatus().getPhase()).isEqualTo("failed");
        assertThat(RunLogs.events(shortDeadline.local().history(), run))
            .last()
            .satisfies(event -> {
              assertThat(event.type()).isEqualTo("failed");
              assertThat(event.data().path("code").asText()).isEqualTo("execution_timeout");
            });
      }
    }
  }

  private static List<JsonNode> toolCalls(Run run) {
    return toolCalls(fixture.local().history(), run);
  }

  /** The tools of the run's tool calls, from its log in {@code history}. */
  static List<JsonNode> toolCalls(History history, Run run) {
    return RunLogs.events(history, run).stream()
        .filter(event -> "tool_call".equals(event.type()))
        .map(event -> event.data().path("tool"))
        .toList();
  }

  private static ConversationThread createThread(KubernetesClient client, String name) {
    ConversationThread thread = new ConversationThread();
    thread.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    thread.setSpec(new ThreadSpec());
    return client.resource(thread).create();
  }

  private static void createRun(
      KubernetesClient client, ConversationThread thread, long sequence, String message) {
    client
        .resource(ThreadRuns.newRun(thread, sequence, message, List.of(), ThreadRuns.SOURCE_API))
        .create();
  }

  private static Run awaitEnded(KubernetesClient client, String name, Duration limit) {
    return await()
        .atMost(limit)
        .until(
            () -> client.resources(Run.class).inNamespace(NS).withName(name).get(),
            run ->
                run != null && run.getStatus() != null && run.getStatus().getCompletedAt() != null);
  }
}
