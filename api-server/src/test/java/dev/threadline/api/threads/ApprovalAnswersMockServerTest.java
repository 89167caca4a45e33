package dev.threadline.api.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiServer;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.crds.run.RunWait;
import dev.threadline.history.StoredAnswer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Run stays small however many calls it waits on: the texts of people's answers go to the history
 * store (before the Run is told), the Run keeps only the latest answer's call id, decision and
 * time. A run answered a hundred times with the longest texts allowed, its message as long as a
 * spec holds, is well under 16 KiB; the store has every text, and a call answered again returns the
 * recorded answer.
 */
class ApprovalAnswersMockServerTest {
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
  void aHundredAnswersWithTheLongestTextsLeaveTheRunSmallAndTheirTextsInTheStore() {
    TestUser alice = shared.newUser("alice");
    String task = FakeOperator.HOLD + " " + "t".repeat(RunSpec.INLINE_MESSAGE);
    // The run is held running while the stream that started it stays open.
    try (SseClient.Stream stream =
        sse.post("/v1/threads", alice.key(), "{\"task\": \"" + task + "\"}")) {
      assertThat(stream.status()).isEqualTo(200);
      answerAHundredTimes(alice, stream.nextEvent().json().at("/thread/id").asString());
    }
  }

  private static void answerAHundredTimes(TestUser alice, String id) {
    String suffix = id.substring("thread_".length());
    String name = "run-" + suffix + "-1";
    await().atMost(Duration.ofSeconds(10)).until(() -> exists(alice, name));

    String message = "m".repeat(RunAnswer.MAX_MESSAGE - 1) + "é"; // 2 bytes in UTF-8: the longest
    String answer = "a".repeat(RunAnswer.MAX_ANSWER - 1) + "é";
    for (int n = 1; n <= RunSpec.MAX_ANSWERS; n++) {
      String callId = "call_" + suffix + "-1_" + n;
      boolean question = n % 2 == 0;
      waitFor(alice, name, callId, question ? RunWait.QUESTION : RunWait.APPROVAL);
      String body =
          question
              ? "{\"callId\": \"" + callId + "\", \"answer\": \"" + answer + "\"}"
              : "{\"callId\": \""
                  + callId
                  + "\", \"decision\": \"deny\", \"message\": \""
                  + message
                  + "\"}";
      ApiClient.Response answered = api.post("/v1/threads/" + id + "/approvals", alice.key(), body);
      assertThat(answered.status()).as(answered.body()).isEqualTo(200);
      assertThat(answered.text(question ? "answer" : "message"))
          .isEqualTo(question ? answer : message);

      Run run = operator.current(alice.namespace(), name);
      assertThat(run.getSpec().getAnswer().getCallId()).isEqualTo(callId);
      assertThat(run.getSpec().getAnswer().getDecision()).isEqualTo(question ? null : "deny");
    }

    Run run = operator.current(alice.namespace(), name);
    int size = Serialization.asJson(run).getBytes(StandardCharsets.UTF_8).length;
    assertThat(size).as("the Run's serialized size").isLessThan(16 * 1024);
    // Everything the hundred answers said is in the store, nothing of it in the Run.
    assertThat(Serialization.asJson(run)).doesNotContain("mmmm").doesNotContain("aaaa");
    StoredAnswer first =
        shared
            .history()
            .answers()
            .of(FakeOperator.key(run), "call_" + suffix + "-1_1")
            .orElseThrow();
    assertThat(first.decision()).isEqualTo("deny");
    assertThat(first.message()).isEqualTo(message);
    assertThat(
            shared
                .history()
                .answers()
                .of(FakeOperator.key(run), "call_" + suffix + "-1_100")
                .map(StoredAnswer::answer))
        .hasValue(answer);

    // Posting an answered call again returns the recorded answer, whatever the body says.
    ApiClient.Response again =
        api.post(
            "/v1/threads/" + id + "/approvals",
            alice.key(),
            "{\"callId\": \"call_" + suffix + "-1_1\", \"decision\": \"approve\"}");
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.text("decision")).isEqualTo("deny");
    assertThat(again.text("message")).isEqualTo(message);
    assertThat(again.text("runId")).isEqualTo("run_" + suffix + "-1");

    // A run has at most its hundred answers.
    String extra = "call_" + suffix + "-1_101";
    waitFor(alice, name, extra, RunWait.APPROVAL);
    ApiClient.Response refused =
        api.post(
            "/v1/threads/" + id + "/approvals",
            alice.key(),
            "{\"callId\": \"" + extra + "\", \"decision\": \"approve\"}");
    assertThat(refused.status()).as(refused.body()).isEqualTo(409);
    assertThat(refused.text("message")).contains("as many answers as a run may have");
  }

  /** What the worker writes when the run's call waits for a person. */
  private static void waitFor(TestUser user, String name, String callId, String kind) {
    Run run = operator.current(user.namespace(), name);
    RunStatus status = Objects.requireNonNullElseGet(run.getStatus(), RunStatus::new);
    status.setPhase(RunPhase.RUNNING.value());
    status.setWaitingFor(
        new RunWait(callId, kind, "run_command", Timestamps.format(Instant.now())));
    operator.write(run, status);
  }

  private static boolean exists(TestUser user, String name) {
    return shared.client().resources(Run.class).inNamespace(user.namespace()).withName(name).get()
        != null;
  }
}
