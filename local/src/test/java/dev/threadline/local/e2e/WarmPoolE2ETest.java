package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.environment.Environment;
import dev.threadline.crds.environment.WarmPoolStatus;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.computer.AgentPodSettings;
import dev.threadline.operator.support.RunLogs;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Warm pools end to end in local mode: a pool of 2 on alice's default environment; twenty computer
 * runs one after another each start on a claimed sandbox; a follow-up of a thread sees its files;
 * cancel and timeout of a claimed run behave as they do cold.
 */
class WarmPoolE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NS = "alice";
  private static final Duration RUN_TIME = Duration.ofSeconds(60);
  private static LocalModeFixture fixture;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    fixture = LocalModeFixture.start();
    client = fixture.local().client();
    askForPool(fixture, 2);
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void twentyRunsOneAfterAnotherAllStartClaimedAndAFollowUpSeesTheThreadsFiles() throws Exception {
    List<String> threads = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      awaitReady(client, 1);
      JsonNode answer =
          json(
              fixture.post(
                  LocalModeFixture.ALICE_KEY,
                  "/v1/threads",
                  "{\"task\":\"Run `echo note-" + i + " > note.txt`\",\"stream\":false}"));
      String thread = answer.at("/thread/id").asText();
      threads.add(thread);
      Run run = run(thread, 1);
      assertThat(run.getStatus().getPhase())
          .as("run %d: %s", i, run.getStatus().getError())
          .isEqualTo("completed");
      assertThat(run.getStatus().getStart()).as("run %d", i).isEqualTo(RunStatus.START_CLAIMED);
      assertThat(run.getStatus().getPod()).startsWith("pool-env-default-");
    }

    awaitReady(client, 1);
    HttpResponse<String> followUp =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/v1/threads/" + threads.get(3) + "/messages",
            "{\"content\":\"Run `cat note.txt`\",\"stream\":false}");
    assertThat(followUp.statusCode()).as(followUp.body()).isBetween(200, 201);
    Run second = run(threads.get(3), 2);
    assertThat(second.getStatus().getPhase()).isEqualTo("completed");
    assertThat(second.getStatus().getStart()).isEqualTo(RunStatus.START_CLAIMED);
    assertThat(ComputerPathE2ETest.toolCalls(fixture.local().history(), second))
        .anySatisfy(tool -> {
          assertThat(tool.path("command").asText()).isEqualTo("cat note.txt");
          assertThat(tool.path("output").asText()).contains("note-3");
        });
    WarmPoolStatus pool = awaitReady(client, 2);
    assertThat(pool.getImage()).isNotBlank();
  }

  @Test
  void aClaimedRunIsCancelledWithinSecondsAndItsSandboxGoes() {
    awaitReady(client, 1);
    String thread;
    try (SseStream stream =
        fixture.stream(
            LocalModeFixture.ALICE_KEY,
            "/v1/threads",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Run `sleep 30`\"}]}")) {
      thread = stream.readUntil(frame -> true).data().at("/thread/id").asText();
      await()
          .atMost(RUN_TIME)
          .until(() -> {
            Run run = run(thread, 1);
            return run != null
                && run.getStatus() != null
                && RunLogs.types(fixture.local().history(), run).contains("planning");
          });
      Instant asked = Instant.now();
      HttpResponse<String> cancel =
          fixture.post(LocalModeFixture.ALICE_KEY, "/v1/threads/" + thread + "/cancel", "{}");
      assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(200);
      Run cancelled = awaitEnded(client, thread, Duration.ofSeconds(15));
      assertThat(Duration.between(asked, Instant.now())).isLessThan(Duration.ofSeconds(10));
      assertThat(cancelled.getStatus().getPhase()).isEqualTo("cancelled");
      assertThat(cancelled.getStatus().getStart()).isEqualTo(RunStatus.START_CLAIMED);
      String pod = cancelled.getStatus().getPod();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> client.pods().inNamespace(NS).withName(pod).get() == null);
    }
  }

  @Test
  void aClaimedRunLongerThanTheDeadlineEndsWithExecutionTimeout() {
    try (LocalModeFixture shortDeadline =
        LocalModeFixture.start(settings ->
            settings.withAgentPod(
                AgentPodSettings.defaults().withDeadline(Duration.ofSeconds(3))))) {
      KubernetesClient shortClient = shortDeadline.local().client();
      askForPool(shortDeadline, 1);
      awaitReady(shortClient, 1);
      JsonNode answer =
          json(
              shortDeadline.post(
                  LocalModeFixture.ALICE_KEY,
                  "/v1/threads",
                  "{\"task\":\"Run `sleep 30`\",\"stream\":false}"));
      String thread = answer.at("/thread/id").asText();
      Run run = awaitEnded(shortClient, thread, RUN_TIME);
      assertThat(run.getStatus().getStart()).isEqualTo(RunStatus.START_CLAIMED);
      assertThat(run.getStatus().getPhase()).isEqualTo("failed");
      assertThat(run.getStatus().getError().getCode()).isEqualTo("execution_timeout");
    }
  }

  @Test
  void anEphemeralContainerClaimsAPoolSandboxBoundToItsOwnAccessToken() {
    awaitReady(client, 1);
    String environment =
        json(fixture.get(LocalModeFixture.ALICE_KEY, "/environments/default"))
            .at("/environment/id")
            .asText();
    HttpResponse<String> created =
        fixture.post(
            LocalModeFixture.ALICE_KEY,
            "/api/v1/containers",
            "{\"environmentId\": \"" + environment + "\", \"model\": \"scripted\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String base = "/api/v1/containers/" + json(created).at("/container/id").asText();

    ContainerFiles.awaitHealthy(fixture, LocalModeFixture.ALICE_KEY, base, RUN_TIME);
    JsonNode running = json(fixture.get(LocalModeFixture.ALICE_KEY, base)).path("container");
    assertThat(running.path("status").asText()).isEqualTo("running");
    assertThat(running.path("start").asText()).isEqualTo("claimed");
    // The file API answers the api-server, which sends the container's own token: the bind took.
    HttpResponse<String> uploaded =
        ContainerFiles.upload(
            fixture,
            LocalModeFixture.ALICE_KEY,
            base,
            "claimed.txt",
            HttpRequest.BodyPublishers.ofString("from a pool"));
    assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
    HttpResponse<String> downloaded =
        fixture.get(LocalModeFixture.ALICE_KEY, base + "/files/download?path=claimed.txt");
    assertThat(downloaded.statusCode()).isEqualTo(200);
    assertThat(downloaded.body()).isEqualTo("from a pool");

    HttpResponse<String> deleted = fixture.delete(LocalModeFixture.ALICE_KEY, base);
    assertThat(deleted.body()).isEqualTo("{\"success\":true}");
  }

  static void askForPool(LocalModeFixture local, int size) {
    HttpResponse<String> created = local.get(LocalModeFixture.ALICE_KEY, "/environments/default");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    String id = json(created).at("/environment/id").asText();
    HttpResponse<String> patched =
        local.send(
            local
                .request(LocalModeFixture.ALICE_KEY, "/environments/" + id)
                .header("Content-Type", "application/json")
                .method(
                    "PATCH",
                    HttpRequest.BodyPublishers.ofString("{\"warmPool\":{\"size\":" + size + "}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
  }

  static WarmPoolStatus awaitReady(KubernetesClient client, int atLeast) {
    return await()
        .atMost(RUN_TIME)
        .until(
            () -> {
              Environment environment =
                  client.resources(Environment.class).inNamespace(NS).withName("env-default").get();
              return environment == null || environment.getStatus() == null
                  ? null
                  : environment.getStatus().getWarmPool();
            },
            pool -> pool != null && pool.getReady() != null && pool.getReady() >= atLeast);
  }

  private static Run run(String threadId, long sequence) {
    return client
        .resources(Run.class)
        .inNamespace(NS)
        .withName(ThreadRuns.runName(ResourceIds.toName(threadId).orElseThrow(), sequence))
        .get();
  }

  private static Run awaitEnded(KubernetesClient client, String threadId, Duration limit) {
    String name = ThreadRuns.runName(ResourceIds.toName(threadId).orElseThrow(), 1);
    return await()
        .atMost(limit)
        .until(
            () -> client.resources(Run.class).inNamespace(NS).withName(name).get(),
            run ->
                run != null && run.getStatus() != null && run.getStatus().getCompletedAt() != null);
  }

  private static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(response.body(), e);
    }
  }
}
