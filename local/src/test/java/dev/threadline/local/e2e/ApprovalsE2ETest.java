package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static dev.threadline.local.e2e.LocalModeFixture.BOB_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.crds.run.Run;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Humans in the loop, black-box through the local mode: an agent whose policy asks for {@code git
 * push*} stops its run at that command (the commands before it ran) until a person answers through
 * {@code POST /v1/threads/:id/approvals}; approved it runs once, denied the model reads the refusal
 * and the run completes, unanswered the wait times out as a denial; the model's {@code ask_user}
 * question gets the answer as its result; an agent without a policy streams the contract's exact
 * sequence.
 */
class ApprovalsE2ETest {
  private static final Duration INPUT_TIMEOUT = Duration.ofSeconds(12);

  @RegisterExtension
  static final LocalModeFixture fixture =
      LocalModeFixture.perClass(
          settings -> settings.withWorker(settings.worker().withInputTimeout(INPUT_TIMEOUT)));

  private static final ApprovalsClient CLIENT = new ApprovalsClient(fixture);

  static final String PUSH_POLICY =
      """
      {"commands": [{"match": "git push*", "action": "ask"}]}\
      """;

  private static final String PUSH_TASK =
      "Run `echo one > a.txt`, then `git push origin main; echo pushed >> pushes.txt`, then `cat"
          + " pushes.txt`";

  @Test
  void anApprovedCallRunsOnceAfterTheCommandsBeforeIt() throws Exception {
    try (WebhookReceiver receiver = WebhookReceiver.start()) {
      approvedOnce(receiver);
    }
  }

  private void approvedOnce(WebhookReceiver receiver) {
    String agent =
        agent(
            PUSH_POLICY,
            ", \"webhooks\": [{\"url\": \""
                + receiver.url("/waits")
                + "\", \"events\": [\"run.approval_requested\"]}]");
    try (SseFrames stream = startThread(agent, PUSH_TASK)) {
      List<SseFrames.Frame> before = untilApproval(stream);
      JsonNode approval = before.getLast().json().path("approval");
      assertThat(toolCommands(before)).containsExactly("echo one > a.txt");
      assertThat(approval.path("tool").asText()).isEqualTo("run_command");
      assertThat(approval.path("kind").asText()).isEqualTo("approval");
      assertThat(approval.path("arguments").path("command").asText())
          .isEqualTo("git push origin main; echo pushed >> pushes.txt");
      assertThat(approval.path("reason").asText()).contains("git push*");
      String threadId = before.getFirst().json().at("/thread/id").asText();
      String callId = approval.path("callId").asText();

      Run waiting = run(threadId);
      assertThat(waiting.getStatus().getWaitingFor().getCallId()).isEqualTo(callId);
      assertThat(waiting.getStatus().getWaitingFor().getKind()).isEqualTo("approval");
      assertThat(waiting.getStatus().getConditions())
          .anySatisfy(condition -> {
            assertThat(condition.getType()).isEqualTo("WaitingForInput");
            assertThat(condition.getStatus()).isEqualTo("True");
          });
      assertThat(threadStatus(threadId)).isEqualTo("running");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> receiver.receivedAt("/waits"), list -> !list.isEmpty());
      JsonNode notice = json(receiver.receivedAt("/waits").getFirst().body());
      assertThat(notice.path("type").asText()).isEqualTo("run.approval_requested");
      assertThat(notice.at("/data/callId").asText()).isEqualTo(callId);
      assertThat(notice.at("/data/threadId").asText()).isEqualTo(threadId);

      HttpResponse<String> approved =
          answer(ALICE_KEY, threadId, callId, "\"decision\": \"approve\"");
      assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
      // posted again: the same answer, not a second one
      HttpResponse<String> again = answer(ALICE_KEY, threadId, callId, "\"decision\": \"deny\"");
      assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
      assertThat(json(again.body()).path("decision").asText()).isEqualTo("approve");
      // another user's thread is not found
      assertThat(answer(BOB_KEY, threadId, callId, "\"decision\": \"approve\"").statusCode())
          .isEqualTo(404);

      List<SseFrames.Frame> after = stream.rest();
      assertThat(types(after)).endsWith("response.completed", "stream.completed");
      assertThat(toolCommands(after))
          .containsExactly("git push origin main; echo pushed >> pushes.txt", "cat pushes.txt");
      assertThat(toolOutputs(after).getLast()).isEqualTo("pushed\n");
      assertThat(types(after)).doesNotContain("response.approval_requested");

      Run ended = run(threadId);
      assertThat(ended.getStatus().getWaitingFor()).isNull();
      assertThat(ended.getSpec().getAnswer().getCallId()).isEqualTo(callId);
      // nothing waits any more
      assertThat(
              answer(ALICE_KEY, threadId, "call_other_1", "\"decision\": \"approve\"").statusCode())
          .isEqualTo(409);
    }
  }

  @Test
  void aDeniedCallIsReportedToTheModelWhichGoesOn() {
    String agent = agent(PUSH_POLICY);
    try (SseFrames stream = startThread(agent, PUSH_TASK)) {
      List<SseFrames.Frame> before = untilApproval(stream);
      String threadId = before.getFirst().json().at("/thread/id").asText();
      String callId = before.getLast().json().at("/approval/callId").asText();

      HttpResponse<String> denied =
          answer(
              ALICE_KEY,
              threadId,
              callId,
              "\"decision\": \"deny\", \"message\": \"not on Fridays\"");
      assertThat(denied.statusCode()).as(denied.body()).isEqualTo(200);

      List<SseFrames.Frame> after = stream.rest();
      assertThat(types(after)).endsWith("response.completed", "stream.completed");
      List<JsonNode> tools = tools(after);
      assertThat(tools.getFirst().path("status").asText()).isEqualTo("failed");
      assertThat(tools.getFirst().at("/tool/output").asText()).contains("not on Fridays");
      // the push never ran: the file it would have written is not there
      assertThat(tools.getLast().at("/tool/command").asText()).isEqualTo("cat pushes.txt");
      assertThat(tools.getLast().at("/tool/exit_code").asInt()).isNotZero();
    }
  }

  @Test
  void aWaitNobodyAnswersTimesOutAsADenial() {
    String agent = agent(PUSH_POLICY);
    try (SseFrames stream = startThread(agent, PUSH_TASK)) {
      untilApproval(stream);
      List<SseFrames.Frame> after = stream.rest();
      assertThat(types(after)).endsWith("response.completed", "stream.completed");
      JsonNode push = tools(after).getFirst();
      assertThat(push.path("status").asText()).isEqualTo("failed");
      assertThat(push.at("/tool/output").asText()).contains("nobody answered within 12 seconds");
    }
  }

  @Test
  void aQuestionOfTheModelGetsThePersonsAnswer() {
    String agent = agent("{\"askUser\": true}");
    try (SseFrames stream =
        startThread(agent, "Do `ask_user: Which branch should I use?`, then `echo done`")) {
      List<SseFrames.Frame> before = untilApproval(stream);
      JsonNode question = before.getLast().json().path("approval");
      assertThat(question.path("kind").asText()).isEqualTo("question");
      assertThat(question.path("tool").asText()).isEqualTo("ask_user");
      assertThat(question.path("question").asText()).isEqualTo("Which branch should I use?");
      String threadId = before.getFirst().json().at("/thread/id").asText();
      String callId = question.path("callId").asText();

      assertThat(answer(ALICE_KEY, threadId, callId, "\"decision\": \"approve\"").statusCode())
          .as("a question wants an answer, not a decision")
          .isEqualTo(400);
      HttpResponse<String> answered = answer(ALICE_KEY, threadId, callId, "\"answer\": \"main\"");
      assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);

      List<SseFrames.Frame> after = stream.rest();
      assertThat(types(after)).endsWith("response.completed", "stream.completed");
      assertThat(tools(after).getFirst().at("/tool/output").asText()).isEqualTo("main");
      assertThat(toolCommands(after)).containsExactly("echo done");
      String message =
          after.stream()
              .filter(frame -> frame.json().at("/item/type").asText().equals("message"))
              .map(frame -> frame.json().at("/item/content/0/text").asText())
              .findFirst()
              .orElseThrow();
      assertThat(message).contains("asked: Which branch should I use? → main");
    }
  }

  @Test
  void theNextMessageAnswersAQuestionAndStreamsTheRunFromAfterIt() {
    String agent = agent("{\"askUser\": true}");
    try (SseFrames stream =
        startThread(agent, "Do `ask_user: Which branch should I use?`, then `echo done`")) {
      List<SseFrames.Frame> before = untilApproval(stream);
      String threadId = before.getFirst().json().at("/thread/id").asText();
      String callId = before.getLast().json().at("/approval/callId").asText();

      // The default strategy (reject) answers the question instead of a 409; no run starts.
      try (SseFrames reply =
          fixture.frames(
              fixture
                  .request(ALICE_KEY, "/v1/threads/" + threadId + "/messages")
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"content\": \"main\"}")))) {
        List<SseFrames.Frame> continued = reply.rest();
        assertThat(types(continued)).endsWith("response.completed", "stream.completed");
        assertThat(types(continued))
            .doesNotContain("response.created", "response.approval_requested");
        assertThat(tools(continued).getFirst().at("/tool/output").asText()).isEqualTo("main");
        assertThat(toolCommands(continued)).containsExactly("echo done");
      }
      assertThat(types(stream.rest())).endsWith("response.completed", "stream.completed");
      Run ended = run(threadId);
      assertThat(ended.getSpec().getSequence()).isEqualTo(1L);
      assertThat(ended.getSpec().getAnswer().getCallId()).isEqualTo(callId);
      // Answered once: /approvals now returns the message's answer.
      HttpResponse<String> recorded = answer(ALICE_KEY, threadId, callId, "\"answer\": \"dev\"");
      assertThat(json(recorded.body()).path("answer").asText()).isEqualTo("main");
    }
  }

  @Test
  void anAgentWithoutAPolicyStreamsTheContractsExactSequence() {
    String agent = agent(null);
    try (SseFrames stream = startThread(agent, "Run `echo one`, then `git push origin main`")) {
      List<String> types = types(stream.rest());
      assertThat(types)
          .containsExactly(
              "thread.created",
              "computer.starting",
              "response.item.completed",
              "response.started",
              "response.item.completed",
              "response.item.completed",
              "response.item.completed",
              "response.item.completed",
              "response.item.completed",
              "response.completed",
              "stream.completed");
    }
  }

  @Test
  void badPoliciesAndBadAnswersAreA400NamingTheField() {
    assertBadAgent("{\"default\": \"maybe\"}", "approvals.default");
    assertBadAgent("{\"commands\": [{\"match\": \"git push*\"}]}", "approvals.commands[0].action");
    assertBadAgent(
        "{\"tools\": [{\"match\": \"\", \"action\": \"ask\"}]}", "approvals.tools[0].match");
    assertBadAgent("{\"tools\": \"write_file\"}", "approvals.tools");
    assertBadAgent("{\"askUser\": \"yes\"}", "approvals.askUser");
    assertBadAgent("{\"unknown\": 1}", "approvals.unknown");
    assertBadAgent(
        "{\"commands\": [{\"match\": \"" + "x".repeat(300) + "\", \"action\": \"ask\"}]}",
        "approvals.commands[0].match");

    String agent = agent(PUSH_POLICY);
    HttpResponse<String> thread =
        fixture.post(ALICE_KEY, "/v1/threads", "{\"agentId\": \"" + agent + "\"}");
    String threadId = json(thread.body()).at("/thread/id").asText();
    assertBadAnswer(threadId, "{}", "callId");
    assertBadAnswer(threadId, "{\"callId\": \"c\"}", "decision");
    assertBadAnswer(threadId, "{\"callId\": \"c\", \"decision\": \"maybe\"}", "decision");
    assertBadAnswer(
        threadId, "{\"callId\": \"c\", \"decision\": \"deny\", \"answer\": \"x\"}", "answer");
    assertBadAnswer(
        threadId, "{\"callId\": \"c\", \"answer\": \"" + "x".repeat(5000) + "\"}", "answer");
    assertThat(answer(ALICE_KEY, threadId, "c", "\"decision\": \"approve\"").statusCode())
        .as("nothing waits")
        .isEqualTo(409);

    HttpResponse<String> patched =
        fixture.send(
            fixture
                .request(ALICE_KEY, "/v1/agents/" + agent)
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"approvals\": null}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    assertThat(json(patched.body()).at("/agent/approvals").isNull()).isTrue();
  }

  private static void assertBadAgent(String approvals, String field) {
    HttpResponse<String> response =
        fixture.post(
            ALICE_KEY,
            "/v1/agents",
            "{\"name\": \"a\", \"model\": \"scripted-model\", \"approvals\": " + approvals + "}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(json(response.body()).path("message").asText()).startsWith(field + " ");
  }

  private static void assertBadAnswer(String threadId, String body, String field) {
    HttpResponse<String> response =
        fixture.post(ALICE_KEY, "/v1/threads/" + threadId + "/approvals", body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(json(response.body()).path("message").asText()).startsWith(field + " ");
  }

  private static String agent(String approvals) {
    return agent(approvals, "");
  }

  private static String agent(String approvals, String more) {
    return CLIENT.agent(approvals, more);
  }

  private static SseFrames startThread(String agentId, String task) {
    return CLIENT.startThread(agentId, task);
  }

  private static List<SseFrames.Frame> untilApproval(SseFrames stream) {
    return ApprovalsClient.untilApproval(stream);
  }

  private static HttpResponse<String> answer(
      String key, String threadId, String callId, String fields) {
    return CLIENT.answer(key, threadId, callId, fields);
  }

  private static Run run(String threadId) {
    return CLIENT.run(threadId);
  }

  private static String threadStatus(String threadId) {
    return json(fixture.get(ALICE_KEY, "/v1/threads/" + threadId).body())
        .at("/thread/status")
        .asText();
  }

  private static List<String> types(List<SseFrames.Frame> frames) {
    return ApprovalsClient.types(frames);
  }

  private static List<JsonNode> tools(List<SseFrames.Frame> frames) {
    return ApprovalsClient.tools(frames);
  }

  private static List<String> toolCommands(List<SseFrames.Frame> frames) {
    return ApprovalsClient.toolCommands(frames);
  }

  private static List<String> toolOutputs(List<SseFrames.Frame> frames) {
    return ApprovalsClient.toolOutputs(frames);
  }

  private static JsonNode json(String body) {
    return ApprovalsClient.json(body);
  }
}
