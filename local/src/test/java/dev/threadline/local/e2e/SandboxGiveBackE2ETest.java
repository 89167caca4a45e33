package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.status.Conditions;
import dev.threadline.operator.worker.WorkerSettings;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wait for a person longer than the worker's release setting (shortened to 2 s here) gives the
 * run's sandbox back, black-box through the local mode: the sandbox Pod goes while the run waits
 * (the Run says so), and once approved the run takes a sandbox again — cold, then from a warm pool
 * — runs the approved call exactly once, and finds the file it wrote before the wait; a local mode
 * killed while the sandbox is given back completes the run once it is answered after the restart; a
 * wait nobody answers takes a sandbox again when it times out, and the model reads the denial.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SandboxGiveBackE2ETest {
  private static final String NS = "alice";
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String CONDITION = "SandboxGivenBack";

  @RegisterExtension
  static final LocalModeFixture fixture =
      LocalModeFixture.perClass(settings ->
          settings.withWorker(
              settings
                  .worker()
                  .withInputRelease(Duration.ofSeconds(2))
                  .withInputTimeout(Duration.ofSeconds(120))));

  private static final ApprovalsClient CLIENT = new ApprovalsClient(fixture);

  private static final String TASK =
      "Run `echo before-the-wait > a.txt`, then `git push origin main; echo pushed >> pushes.txt`,"
          + " then `cat a.txt pushes.txt`";

  @Test
  @Order(1)
  void aColdSandboxGivenBackDuringALongWaitIsTakenAgainWithTheWorkspace() {
    Run finished = approvedAfterGivingBack(() -> {});
    assertThat(finished.getStatus().getStart()).isEqualTo(RunStatus.START_COLD);
  }

  @Test
  @Order(2)
  void withAWarmPoolTheSandboxTakenAgainIsClaimedAndTheWorkspaceRestoredIntoIt() {
    KubernetesClient client = fixture.local().client();
    WarmPoolE2ETest.askForPool(fixture, 1);
    WarmPoolE2ETest.awaitReady(client, 1);
    // answered once the pool has refilled the sandbox the run claimed first
    Run finished = approvedAfterGivingBack(() -> WarmPoolE2ETest.awaitReady(client, 1));
    assertThat(finished.getStatus().getStart()).isEqualTo(RunStatus.START_CLAIMED);
    assertThat(finished.getStatus().getPod()).startsWith("pool-env-default-");
  }

  @Test
  @Order(3)
  void aWaitNobodyAnswersTakesASandboxAgainWhenItTimesOutAndTheModelReadsTheDenial() {
    try (LocalModeFixture quick =
        LocalModeFixture.start(settings ->
            settings.withWorker(
                settings
                    .worker()
                    .withInputRelease(Duration.ofSeconds(1))
                    .withInputTimeout(Duration.ofSeconds(8))))) {
      ApprovalsClient api = new ApprovalsClient(quick);
      try (SseFrames stream = api.startThread(api.agent(ApprovalsE2ETest.PUSH_POLICY, ""), TASK)) {
        String threadId =
            ApprovalsClient.untilApproval(stream).getFirst().json().at("/thread/id").asText();
        await().atMost(WAIT).until(() -> api.run(threadId), run -> condition(run, Conditions.TRUE));
        List<SseFrames.Frame> after = stream.rest();
        assertThat(ApprovalsClient.types(after)).endsWith("response.completed", "stream.completed");
        List<com.fasterxml.jackson.databind.JsonNode> tools = ApprovalsClient.tools(after);
        assertThat(tools.getFirst().path("status").asText()).isEqualTo("failed");
        assertThat(tools.getFirst().at("/tool/output").asText())
            .contains("nobody answered within 8 seconds");
        // the push never ran; the file from before the wait is there
        assertThat(ApprovalsClient.toolOutputs(after).getLast()).startsWith("before-the-wait\n");
      }
    }
  }

  @Test
  @Order(4)
  void aLocalModeKilledWhileTheSandboxIsGivenBackCompletesTheRunOnceAnsweredAfterItsRestart(
      @TempDir Path dataDir) throws Exception {
    Map<String, String> settings =
        Map.of(
            WorkerSettings.INPUT_RELEASE_VARIABLE,
            "2",
            WorkerSettings.INPUT_TIMEOUT_VARIABLE,
            "120");
    String threadId;
    String callId;
    try (LocalModeProcess first = LocalModeProcess.start(dataDir, settings);
        KubernetesClient kube = kubernetes(dataDir)) {
      ApprovalsClient api = new ApprovalsClient(first.client(), () -> kube);
      String agent = api.agent(ApprovalsE2ETest.PUSH_POLICY, "");
      try (SseFrames stream = api.startThread(agent, TASK)) {
        List<SseFrames.Frame> before = ApprovalsClient.untilApproval(stream);
        threadId = before.getFirst().json().at("/thread/id").asText();
        callId = before.getLast().json().at("/approval/callId").asText();
        String thread = threadId;
        await().atMost(WAIT).until(() -> api.run(thread), run -> condition(run, Conditions.TRUE));
        first.kill();
      }
    }
    try (LocalModeProcess second = LocalModeProcess.start(dataDir, settings);
        KubernetesClient kube = kubernetes(dataDir)) {
      ApprovalsClient api = new ApprovalsClient(second.client(), () -> kube);
      assertThat(api.run(threadId).getStatus().getPhase())
          .as("a run without its sandbox outlives the restart")
          .isEqualTo("running");
      HttpResponse<String> approved =
          api.answer(ALICE_KEY, threadId, callId, "\"decision\": \"approve\"");
      assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
      LocalModeFixture rest = second.client();
      List<SseFrames.Frame> whole;
      try (SseFrames replay =
          rest.frames(rest.request(ALICE_KEY, "/v1/threads/" + threadId + "/stream").GET())) {
        whole = replay.rest();
      }
      assertThat(ApprovalsClient.types(whole)).endsWith("response.completed", "stream.completed");
      assertThat(ApprovalsClient.toolCommands(whole))
          .containsExactly(
              "echo before-the-wait > a.txt",
              "git push origin main; echo pushed >> pushes.txt",
              "cat a.txt pushes.txt");
      assertThat(ApprovalsClient.toolOutputs(whole).getLast())
          .isEqualTo("before-the-wait\npushed\n");
      second.stop();
    }
  }

  private static KubernetesClient kubernetes(Path dataDir) throws java.io.IOException {
    return new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(dataDir.resolve("kubeconfig"))))
        .build();
  }

  /**
   * A thread whose push waits past the release setting: its Pod goes, the Run says why, then the
   * approval, given after {@code beforeAnswer}, makes the run take a sandbox again and finish
   * there. The finished Run.
   */
  private static Run approvedAfterGivingBack(Runnable beforeAnswer) {
    KubernetesClient client = fixture.local().client();
    String agent = CLIENT.agent(ApprovalsE2ETest.PUSH_POLICY, "");
    try (SseFrames stream = CLIENT.startThread(agent, TASK)) {
      List<SseFrames.Frame> before = ApprovalsClient.untilApproval(stream);
      assertThat(ApprovalsClient.toolCommands(before))
          .containsExactly("echo before-the-wait > a.txt");
      String threadId = before.getFirst().json().at("/thread/id").asText();
      String callId = before.getLast().json().at("/approval/callId").asText();
      Run waiting = CLIENT.run(threadId);
      String firstPod = waiting.getStatus().getPod();
      String firstStart = waiting.getStatus().getStart();
      assertThat(firstPod).isNotNull();

      Run givenBack =
          await()
              .atMost(WAIT)
              .until(() -> CLIENT.run(threadId), run -> condition(run, Conditions.TRUE));
      await()
          .atMost(WAIT)
          .until(() -> client.pods().inNamespace(NS).withName(firstPod).get() == null);
      assertThat(givenBack.getStatus().getPod()).isNull();
      assertThat(givenBack.getStatus().getWaitingFor().getCallId()).isEqualTo(callId);
      assertThat(givenBack.getStatus().getWaitingFor().getSandboxGivenBack()).isNotNull();
      assertThat(givenBack.getStatus().getPhase()).isEqualTo("running");
      await()
          .atMost(WAIT)
          .until(() -> reasons(client, givenBack), reasons -> reasons.contains(CONDITION));

      beforeAnswer.run();
      HttpResponse<String> approved =
          CLIENT.answer(ALICE_KEY, threadId, callId, "\"decision\": \"approve\"");
      assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);

      List<SseFrames.Frame> after = stream.rest();
      assertThat(ApprovalsClient.types(after)).endsWith("response.completed", "stream.completed");
      assertThat(ApprovalsClient.types(after)).doesNotContain("response.approval_requested");
      assertThat(ApprovalsClient.toolCommands(after))
          .containsExactly(
              "git push origin main; echo pushed >> pushes.txt", "cat a.txt pushes.txt");
      // the file written before the wait is there, and the approved push ran exactly once
      assertThat(ApprovalsClient.toolOutputs(after).getLast())
          .isEqualTo("before-the-wait\npushed\n");

      Run finished =
          await()
              .atMost(WAIT)
              .until(() -> CLIENT.run(threadId), run -> condition(run, Conditions.FALSE));
      assertThat(finished.getStatus().getPhase()).isEqualTo("completed");
      assertThat(finished.getStatus().getWaitingFor()).isNull();
      assertThat(finished.getStatus().getPod()).isNotNull();
      if (RunStatus.START_CLAIMED.equals(firstStart)) {
        assertThat(finished.getStatus().getPod()).isNotEqualTo(firstPod);
      }
      return finished;
    }
  }

  /** Whether the run's SandboxGivenBack condition has {@code status}. */
  private static boolean condition(Run run, String status) {
    return run != null
        && run.getStatus() != null
        && Optional.ofNullable(run.getStatus().getConditions()).orElse(List.of()).stream()
            .filter(c -> CONDITION.equals(c.getType()))
            .map(Condition::getStatus)
            .anyMatch(status::equals);
  }

  /** The reasons of the Kubernetes Events about the run. */
  private static List<String> reasons(KubernetesClient client, Run run) {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(event -> run.getMetadata().getName().equals(event.getInvolvedObject().getName()))
        .map(Event::getReason)
        .toList();
  }
}
