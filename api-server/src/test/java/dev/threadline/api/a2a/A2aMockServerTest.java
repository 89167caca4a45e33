package dev.threadline.api.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.auth.ApiKeys;
import dev.threadline.api.support.Allowances;
import dev.threadline.api.support.ApiClient;
import dev.threadline.api.support.SharedApiTest;
import dev.threadline.api.support.SseClient;
import dev.threadline.api.support.TestUser;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A2A over real HTTP against the shared API server and the fake operator. */
class A2aMockServerTest extends SharedApiTest {
  @Test
  void theServersCardIsPublicAtTheWellKnownPath() {
    ApiClient.Response card = api.get("/.well-known/agent-card.json", null);

    assertThat(card.status()).as(card.body()).isEqualTo(200);
    assertThat(card.text("name")).isEqualTo("Threadline");
    assertThat(card.text("url")).isEqualTo(shared.baseUrl() + "/a2a");
    assertThat(card.text("protocolVersion")).isEqualTo("0.3.0");
    assertThat(card.text("preferredTransport")).isEqualTo("JSONRPC");
    assertThat(card.json().path("capabilities").path("streaming").asBoolean()).isTrue();
    assertThat(card.json().path("securitySchemes").path("bearer").path("type").asString())
        .isEqualTo("http");
    assertThat(card.json().path("securitySchemes").path("bearer").path("scheme").asString())
        .isEqualTo("bearer");
    assertThat(card.json().path("security").toString()).isEqualTo("[{\"bearer\":[]}]");
    assertThat(card.json().path("skills").get(0).path("id").asString())
        .isEqualTo("threadline-task");
    assertThat(api.get("/a2a/.well-known/agent-card.json", null).body()).isEqualTo(card.body());
  }

  @Test
  void anAgentsCardComesFromItsInstructionsAndOnlyWithItsOwnersKey() {
    TestUser alice = shared.newUser("alice");
    TestUser bob = shared.newUser("bob");
    String agentId = agent(alice, "Reviewer", "Review the code you are given. Be brief.");

    ApiClient.Response card =
        api.get("/a2a/agents/" + agentId + "/.well-known/agent-card.json", alice.key());

    assertThat(card.status()).as(card.body()).isEqualTo(200);
    assertThat(card.text("name")).isEqualTo("Reviewer");
    assertThat(card.text("description")).isEqualTo("Review the code you are given. Be brief.");
    assertThat(card.text("url")).isEqualTo(shared.baseUrl() + "/a2a/agents/" + agentId);
    JsonNode skill = card.json().path("skills").get(0);
    assertThat(skill.path("id").asString()).isEqualTo(agentId);
    assertThat(skill.path("name").asString()).isEqualTo("Reviewer");
    assertThat(skill.path("description").asString())
        .isEqualTo("Review the code you are given. Be brief.");
    assertThat(api.get("/a2a/agents/" + agentId + "/.well-known/agent-card.json", null).status())
        .isEqualTo(401);
    assertThat(
            api.get("/a2a/agents/" + agentId + "/.well-known/agent-card.json", bob.key()).status())
        .isEqualTo(404);
    assertThat(rpc(bob, "/a2a/agents/" + agentId, send("hi", null)).status()).isEqualTo(404);
  }

  @Test
  void messageSendAnswersWithTheCompletedTaskAndTheContextIsTheThread() {
    TestUser alice = shared.newUser("alice");

    JsonNode task = result(rpc(alice, "/a2a", send("Hello there", null)));

    assertThat(task.path("kind").asString()).isEqualTo("task");
    String threadId = task.path("contextId").asString();
    assertThat(threadId).startsWith("thread_");
    assertThat(task.path("id").asString())
        .isEqualTo("run_" + threadId.substring("thread_".length()) + "-1");
    assertThat(task.path("status").path("state").asString()).isEqualTo("completed");
    assertThat(task.path("artifacts").get(0).path("parts").get(0).path("text").asString())
        .isEqualTo("Echo: Hello there");
    assertThat(task.path("history").get(0).path("role").asString()).isEqualTo("user");
    assertThat(task.path("history").get(1).path("role").asString()).isEqualTo("agent");
    assertThat(task.path("history").size()).isEqualTo(2);

    JsonNode followUp = result(rpc(alice, "/a2a", send("Again", threadId)));
    assertThat(followUp.path("contextId").asString()).isEqualTo(threadId);
    assertThat(followUp.path("id").asString()).endsWith("-2");
    JsonNode thread = api.get("/v1/threads/" + threadId, alice.key()).json().path("thread");
    assertThat(thread.path("messageCount").asLong()).isEqualTo(4);

    JsonNode got =
        result(
            rpc(
                alice,
                "/a2a",
                request("tasks/get", "{\"id\":\"" + followUp.path("id").asString() + "\"}")));
    assertThat(got.path("status").path("state").asString()).isEqualTo("completed");
    assertThat(got.path("history").get(0).path("parts").get(0).path("text").asString())
        .isEqualTo("Again");
  }

  @Test
  void anAgentsEndpointStartsThreadsOfThatAgentOnly() {
    TestUser alice = shared.newUser("alice");
    String agentId = agent(alice, "Helper", "Help.");

    JsonNode task = result(rpc(alice, "/a2a/agents/" + agentId, send("Hello", null)));

    String threadId = task.path("contextId").asString();
    assertThat(
            api.get("/v1/threads/" + threadId, alice.key())
                .json()
                .path("thread")
                .path("agentId")
                .asString())
        .isEqualTo(agentId);
    // The thread is not a context of the endpoint without an agent, nor is its task.
    assertThat(error(rpc(alice, "/a2a", send("More", threadId))).path("code").asInt())
        .isEqualTo(-32602);
    String taskRequest = request("tasks/get", "{\"id\":\"" + task.path("id").asString() + "\"}");
    assertThat(error(rpc(alice, "/a2a", taskRequest)).path("code").asInt()).isEqualTo(-32001);
    assertThat(result(rpc(alice, "/a2a/agents/" + agentId, taskRequest)).path("id").asString())
        .isEqualTo(task.path("id").asString());
  }

  @Test
  void messageStreamSendsTheTaskThenItsStatusAndAnswerUntilTheFinalStatus() {
    TestUser carol = shared.newUser("carol");

    List<JsonNode> events = stream(carol, send("[computer] write notes", null, "message/stream"));

    assertThat(events.getFirst().path("kind").asString()).isEqualTo("task");
    assertThat(events.getFirst().path("status").path("state").asString()).isEqualTo("submitted");
    JsonNode last = events.getLast();
    assertThat(last.path("kind").asString()).isEqualTo("status-update");
    assertThat(last.path("final").asBoolean()).isTrue();
    assertThat(last.path("status").path("state").asString()).isEqualTo("completed");
    JsonNode artifact = events.get(events.size() - 2);
    assertThat(artifact.path("kind").asString()).isEqualTo("artifact-update");
    assertThat(artifact.path("artifact").path("parts").get(0).path("text").asString()).isNotBlank();
    List<String> working =
        events.stream()
            .filter(event -> "working".equals(event.path("status").path("state").asString()))
            .map(event ->
                event
                    .path("status")
                    .path("message")
                    .path("parts")
                    .path(0)
                    .path("text")
                    .asString(""))
            .toList();
    assertThat(working).isNotEmpty();
    assertThat(String.join("\n", working)).contains("$ ");
    String taskId = events.getFirst().path("id").asString();
    assertThat(events).allSatisfy(event -> assertThat(taskIdOf(event)).isEqualTo(taskId));
  }

  @Test
  void resubscribingToAFinishedTaskSendsItOnceAndEnds() {
    TestUser dave = shared.newUser("dave");
    JsonNode task = result(rpc(dave, "/a2a", send("Hello", null)));

    List<JsonNode> events =
        stream(
            dave, request("tasks/resubscribe", "{\"id\":\"" + task.path("id").asString() + "\"}"));

    assertThat(events).hasSize(1);
    assertThat(events.getFirst().path("status").path("state").asString()).isEqualTo("completed");
  }

  @Test
  void cancelStopsARunningTaskAndAFinishedOneIsNotCancelable() {
    TestUser erin = shared.newUser("erin");
    JsonNode held = result(rpc(erin, "/a2a", send("[hold] wait", null, "message/send", false)));
    String taskId = held.path("id").asString();
    assertThat(held.path("status").path("state").asString()).isEqualTo("submitted");
    String runName = "run-" + taskId.substring("run_".length());

    CompletableFuture<ApiClient.Response> cancel =
        CompletableFuture.supplyAsync(
            () -> rpc(erin, "/a2a", request("tasks/cancel", "{\"id\":\"" + taskId + "\"}")));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() ->
            Boolean.TRUE.equals(
                operator.current(erin.namespace(), runName).getSpec().getCancelRequested()));
    // What the operator does once it sees the request.
    Run run = operator.current(erin.namespace(), runName);
    RunStatus status = new RunStatus();
    status.setPhase("cancelled");
    operator.write(run, status);

    JsonNode cancelled = result(cancel.join());
    assertThat(cancelled.path("status").path("state").asString()).isEqualTo("canceled");
    assertThat(
            error(rpc(erin, "/a2a", request("tasks/cancel", "{\"id\":\"" + taskId + "\"}")))
                .path("code")
                .asInt())
        .isEqualTo(-32002);
  }

  @Test
  void anotherUsersTaskAndContextAreNotFound() {
    TestUser alice = shared.newUser("alice");
    TestUser mallory = shared.newUser("mallory");
    JsonNode task = result(rpc(alice, "/a2a", send("Hello", null)));
    String get = request("tasks/get", "{\"id\":\"" + task.path("id").asString() + "\"}");

    assertThat(error(rpc(mallory, "/a2a", get)).path("code").asInt()).isEqualTo(-32001);
    assertThat(
            error(
                    rpc(
                        mallory,
                        "/a2a",
                        request("tasks/cancel", "{\"id\":\"" + task.path("id").asString() + "\"}")))
                .path("code")
                .asInt())
        .isEqualTo(-32001);
    assertThat(
            error(rpc(mallory, "/a2a", send("Hi", task.path("contextId").asString())))
                .path("code")
                .asInt())
        .isEqualTo(-32602);
    assertThat(rpc(null, "/a2a", get).status()).isEqualTo(401);
  }

  @Test
  void anExhaustedAllowanceIs402WithTheUsageAndStartsNothing() {
    TestUser spent = shared.newUser("spent");
    Allowances.spend(shared, spent);

    ApiClient.Response refused = rpc(spent, "/a2a", send("Hello", null));

    assertThat(refused.status()).as(refused.body()).isEqualTo(402);
    JsonNode error = refused.json().path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32010);
    assertThat(error.path("message").asString()).isEqualTo("monthly usage allowance exhausted");
    assertThat(error.path("data").toString())
        .isEqualTo(
            "{\"error\":\"Payment Required\",\"usage\":{\"tier\":\"pro\",\"allowance\":0.5,"
                + "\"used\":0.5}}");
    assertThat(refused.json().path("id").asInt()).isEqualTo(1);
    assertThat(api.get("/v1/threads", spent.key()).json().path("total_count").asInt()).isZero();
  }

  @Test
  void keysNeedTheThreadsScopeAndKeepTheirRateLimit() {
    TestUser user = shared.newUser("scoped");
    String reader = shared.addKey(user.userId(), ApiKeys.newKey(), Map.of(ApiKeys.SCOPES, "read"));
    String hasty =
        shared.addKey(user.userId(), ApiKeys.newKey(), Map.of(ApiKeys.RATE_LIMIT, "2/6"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/v1/threads", reader).status() == 200);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/v1/threads", hasty).status() != 401);

    ApiClient.Response forbidden = api.post("/a2a", reader, send("Hello", null));
    assertThat(forbidden.status()).isEqualTo(403);
    assertThat(forbidden.text("message")).isEqualTo("this API key lacks the threads scope");
    assertThat(api.get("/.well-known/agent-card.json", reader).status()).isEqualTo(200);

    int status = 200;
    for (int i = 0; i < 4 && status != 429; i++) {
      status = api.post("/a2a", hasty, request("tasks/get", "{\"id\":\"run_x-1\"}")).status();
    }
    assertThat(status).isEqualTo(429);
  }

  @Test
  void badRequestsGetJsonRpcErrorsNeverA500() {
    TestUser frank = shared.newUser("frank");

    assertRpcError(rpc(frank, "/a2a", "{not json"), -32700, null);
    assertRpcError(rpc(frank, "/a2a", "[]"), -32600, null);
    assertRpcError(
        rpc(frank, "/a2a", "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"tasks/get\"}"), -32600, 3);
    assertRpcError(rpc(frank, "/a2a", request("tasks/list", "{}")), -32601, 1);
    assertRpcError(rpc(frank, "/a2a", request("message/send", "{\"message\":{}}")), -32602, 1);
    assertRpcError(rpc(frank, "/a2a", request("tasks/get", "{\"id\":\"run_nope-1\"}")), -32001, 1);
    assertRpcError(
        rpc(frank, "/a2a", request("tasks/pushNotificationConfig/get", "{\"id\":\"run_nope-1\"}")),
        -32003,
        1);
    String filePart =
        "{\"message\":{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"user\",\"parts\":"
            + "[{\"kind\":\"file\",\"file\":{\"uri\":\"http://127.0.0.1/x\"}}]}}";
    assertRpcError(rpc(frank, "/a2a", request("message/send", filePart)), -32602, 1);
    assertRpcError(rpc(frank, "/a2a", send(" ", null)), -32602, 1);
    String agentRole =
        "{\"message\":{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"agent\",\"parts\":"
            + "[{\"kind\":\"text\",\"text\":\"hi\"}]}}";
    assertRpcError(rpc(frank, "/a2a", request("message/send", agentRole)), -32602, 1);
  }

  private static void assertRpcError(ApiClient.Response response, int code, Integer id) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.json().path("jsonrpc").asString()).isEqualTo("2.0");
    assertThat(response.json().path("error").path("code").asInt())
        .as(response.body())
        .isEqualTo(code);
    assertThat(response.json().path("error").path("message").asString()).isNotBlank();
    if (id == null) {
      assertThat(response.json().path("id").isNull()).as(response.body()).isTrue();
    } else {
      assertThat(response.json().path("id").asInt()).isEqualTo(id);
    }
  }

  private static String agent(TestUser user, String name, String instructions) {
    ApiClient.Response created =
        api.post(
            "/v1/agents",
            user.key(),
            "{\"name\": \""
                + name
                + "\", \"model\": \"gpt-4.1-mini\", \"provider\": \"openai\", \"instructions\": \""
                + instructions
                + "\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().path("agent").path("id").asString();
  }

  static String send(String text, String contextId) {
    return send(text, contextId, "message/send");
  }

  static String send(String text, String contextId, String method) {
    return send(text, contextId, method, true);
  }

  static String send(String text, String contextId, String method, boolean blocking) {
    return request(
        method,
        "{\"message\":{\"kind\":\"message\",\"messageId\":\"m-"
            + System.nanoTime()
            + "\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\""
            + text
            + "\"}]"
            + (contextId == null ? "" : ",\"contextId\":\"" + contextId + "\"")
            + "},\"configuration\":{\"blocking\":"
            + blocking
            + "}}");
  }

  static String request(String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
  }

  private static ApiClient.Response rpc(TestUser user, String path, String body) {
    return api.post(path, user == null ? null : user.key(), body);
  }

  private static JsonNode result(ApiClient.Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.json().has("error")).as(response.body()).isFalse();
    return response.json().path("result");
  }

  private static JsonNode error(ApiClient.Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().path("error");
  }

  private static List<JsonNode> stream(TestUser user, String body) {
    try (SseClient.Stream stream = sse.post("/a2a", user.key(), body)) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.header("Content-Type")).startsWith("text/event-stream");
      return stream.remainingEvents().stream()
          .map(frame -> {
            JsonNode response = frame.json();
            assertThat(response.path("jsonrpc").asString()).isEqualTo("2.0");
            assertThat(response.path("id").asInt()).isEqualTo(1);
            assertThat(response.has("error")).as(frame.data()).isFalse();
            return response.path("result");
          })
          .toList();
    }
  }

  private static String taskIdOf(JsonNode event) {
    return event.has("taskId") ? event.path("taskId").asString() : event.path("id").asString();
  }
}
