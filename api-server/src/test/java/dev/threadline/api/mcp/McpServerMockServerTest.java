package dev.threadline.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.threadline.api.auth.ApiKeys;
import dev.threadline.api.support.Allowances;
import dev.threadline.api.support.FakeOperator;
import dev.threadline.api.support.SharedApiTest;
import dev.threadline.api.support.TestUser;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP server through the MCP Java SDK's own client: the tools and their schemas, a computer
 * task run to its end with progress, its diffs, and the same rules as REST (another user's thread
 * not found, scopes, a key required), each failure a tool error result with the REST error body.
 */
class McpServerMockServerTest extends SharedApiTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void listsTheThreadTools() {
    TestUser alice = shared.newUser("alice");
    try (McpSyncClient client = connect(new AtomicReference<>(alice.key()), List.of())) {
      List<McpSchema.Tool> tools = client.listTools().tools();
      assertThat(tools)
          .extracting(McpSchema.Tool::name)
          .containsExactly(
              "start_task",
              "send_message",
              "list_threads",
              "get_thread",
              "read_messages",
              "read_logs",
              "read_diffs",
              "cancel_run");
      McpSchema.Tool start = tools.getFirst();
      assertThat(start.inputSchema()).containsEntry("required", List.of("task"));
      assertThat(List.copyOf(((Map<?, ?>) start.inputSchema().get("properties")).keySet()))
          .isEqualTo(List.of("task", "environmentId", "agentId", "title", "wait"));
      assertThat(tools.get(6).annotations().readOnlyHint()).isTrue();
    }
  }

  @Test
  void aComputerTaskRunsToItsEndWithProgressAndItsDiffsAreRead() {
    TestUser alice = shared.newUser("alice");
    List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    try (McpSyncClient client = connect(new AtomicReference<>(alice.key()), progress)) {
      McpSchema.CallToolResult result =
          client.callTool(
              McpSchema.CallToolRequest.builder()
                  .name("start_task")
                  .arguments(Map.of("task", FakeOperator.COMPUTER + " write notes.txt"))
                  .progressToken("task-1")
                  .build());

      JsonNode body = body(result);
      assertThat(result.isError()).as(body.toString()).isFalse();
      assertThat(body.at("/execution/success").asBoolean()).isTrue();
      assertThat(body.at("/execution/response").asString()).isEqualTo("Done: notes.txt written");
      String threadId = body.at("/thread/id").asString();
      assertThat(body.at("/thread/status").asString()).isEqualTo("completed");

      // One notification per event of the run's stream, counted up, each saying what happened.
      await()
          .atMost(Duration.ofSeconds(5))
          .until(
              () -> progress.stream().anyMatch(p -> p.message().startsWith("response.completed")));
      assertThat(progress).allMatch(p -> "task-1".equals(p.progressToken()));
      // Numbered 1, 2, 3... (this client may hand them over out of order: it dispatches each on
      // its own thread).
      assertThat(progress)
          .extracting(McpSchema.ProgressNotification::progress)
          .containsExactlyInAnyOrderElementsOf(
              java.util.stream.IntStream.rangeClosed(1, progress.size())
                  .mapToObj(n -> (double) n)
                  .toList());
      assertThat(progress)
          .extracting(McpSchema.ProgressNotification::message)
          .contains("computer.starting", "response.item.completed tool_call: ls (exit 0)");

      JsonNode diffs = body(call(client, "read_diffs", Map.of("threadId", threadId)));
      assertThat(diffs.at("/diffs/0/path").asString()).isEqualTo("notes.txt");
      JsonNode messages = body(call(client, "read_messages", Map.of("threadId", threadId)));
      assertThat(messages.at("/data/1/content").asString()).isEqualTo("Done: notes.txt written");
      JsonNode listed = body(call(client, "list_threads", Map.of("limit", 5)));
      assertThat(listed.at("/data/0/id").asString()).isEqualTo(threadId);
      JsonNode logs = body(call(client, "read_logs", Map.of("threadId", threadId)));
      assertThat(logs.toString()).contains("ls");
    }
  }

  @Test
  void withoutWaitingTheIdsComeAtOnceAndAFollowUpCanBeCancelled() {
    TestUser alice = shared.newUser("alice");
    try (McpSyncClient client = connect(new AtomicReference<>(alice.key()), List.of())) {
      JsonNode started =
          body(
              call(
                  client,
                  "start_task",
                  Map.of("task", FakeOperator.HOLD + " wait here", "wait", false)));
      String threadId = started.path("threadId").asString();
      assertThat(started.path("runId").asString()).startsWith("run_");
      assertThat(started.path("status").asString()).isEqualTo("running");

      JsonNode cancelled = body(call(client, "cancel_run", Map.of("threadId", threadId)));
      assertThat(cancelled.path("success").asBoolean()).isTrue();
      assertThat(cancelled.path("message").asString()).isEqualTo("Cancellation requested");
    }
  }

  @Test
  void everyCallActsForTheKeyItCarriesAndAnotherUsersThreadIsNotFound() {
    TestUser alice = shared.newUser("alice");
    TestUser bob = shared.newUser("bob");
    AtomicReference<String> key = new AtomicReference<>(alice.key());
    try (McpSyncClient client = connect(key, List.of())) {
      String threadId =
          body(call(client, "start_task", Map.of("task", "hello"))).at("/thread/id").asString();

      // The same session, now carrying bob's key: bob's view, not the session's first caller's.
      key.set(bob.key());
      McpSchema.CallToolResult foreign = call(client, "get_thread", Map.of("threadId", threadId));
      assertError(foreign, 404, "Not Found", "Thread " + threadId + " not found");
      assertError(
          call(client, "read_diffs", Map.of("threadId", threadId)),
          404,
          "Not Found",
          "Thread " + threadId + " not found");
      assertThat(body(call(client, "list_threads", Map.of())).path("data")).isEmpty();
    }
  }

  @Test
  void badCallsAreErrorResultsNamingTheArgumentAndUnknownToolsJsonRpcErrors() {
    TestUser alice = shared.newUser("alice");
    try (McpSyncClient client = connect(new AtomicReference<>(alice.key()), List.of())) {
      assertError(call(client, "start_task", Map.of()), 400, "Bad Request", "task is required");
      assertError(
          call(client, "start_task", Map.of("task", 42)),
          400,
          "Bad Request",
          "task must be a string");
      assertError(
          call(client, "list_threads", Map.of("limit", 1000)),
          400,
          "Bad Request",
          "limit must be between 1 and 100");
      assertError(
          call(client, "read_messages", Map.of("threadId", "thread_nothere")),
          404,
          "Not Found",
          "Thread thread_nothere not found");

      assertThatThrownBy(() -> call(client, "no_such_tool", Map.of()))
          .isInstanceOfSatisfying(
              McpError.class,
              error ->
                  assertThat(error.getJsonRpcError().code())
                      .isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS));
    }
  }

  @Test
  void aReadKeyReadsButStartsNothingAndNoKeyIsRefused() throws Exception {
    TestUser carol = shared.newUser("carol");
    String reader = shared.addKey(carol.userId(), ApiKeys.newKey(), Map.of(ApiKeys.SCOPES, "read"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/v1/threads", reader).status() == 200);
    try (McpSyncClient client = connect(new AtomicReference<>(reader), List.of())) {
      assertThat(body(call(client, "list_threads", Map.of())).path("data")).isEmpty();
      assertError(
          call(client, "start_task", Map.of("task", "hello")),
          403,
          "Forbidden",
          "this API key lacks the threads scope");
    }

    HttpResponse<String> anonymous =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(shared.baseUrl() + "/mcp"))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(JSON.readTree(anonymous.body()).path("error").asString()).isEqualTo("Unauthorized");
  }

  @Test
  void aAllowancesIsThe402OfRestAndARateLimitedKeyIsRefusedAsByRest() throws Exception {
    TestUser spent = shared.newUser("spent");
    Allowances.spend(shared, spent);
    try (McpSyncClient client = connect(new AtomicReference<>(spent.key()), List.of())) {
      McpSchema.CallToolResult refused = call(client, "start_task", Map.of("task", "hello"));
      assertThat(refused.isError()).isTrue();
      JsonNode body = body(refused);
      assertThat(body.path("status").asInt()).isEqualTo(402);
      ((tools.jackson.databind.node.ObjectNode) body).remove("status");
      assertThat(body).isEqualTo(JSON.readTree(Allowances.EXHAUSTED));
    }

    TestUser dave = shared.newUser("dave");
    String limited =
        shared.addKey(dave.userId(), ApiKeys.newKey(), Map.of(ApiKeys.RATE_LIMIT, "4/1"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> api.get("/v1/threads", limited).status() == 200);
    // initialize, its notification and a few calls: the bucket of 4 (one used above) runs out.
    assertThatThrownBy(
            () -> {
              try (McpSyncClient client = connect(new AtomicReference<>(limited), List.of())) {
                for (int i = 0; i < 4; i++) {
                  call(client, "list_threads", Map.of());
                }
              }
            })
        .hasMessageContaining("429");
  }

  private static McpSyncClient connect(
      AtomicReference<String> key, List<McpSchema.ProgressNotification> progress) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(shared.baseUrl())
            .endpoint("/mcp")
            .httpRequestCustomizer((request, method, uri, body, context) ->
                request.header("Authorization", "Bearer " + key.get()))
            .build();
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(30))
            .progressConsumer(progress::add)
            .build();
    client.initialize();
    return client;
  }

  private static McpSchema.CallToolResult call(
      McpSyncClient client, String tool, Map<String, Object> arguments) {
    return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
  }

  private static JsonNode body(McpSchema.CallToolResult result) {
    assertThat(result.content()).hasSize(1);
    return JSON.readTree(((McpSchema.TextContent) result.content().getFirst()).text());
  }

  private static void assertError(
      McpSchema.CallToolResult result, int status, String error, String message) {
    JsonNode body = body(result);
    assertThat(result.isError()).as(body.toString()).isTrue();
    assertThat(body.path("status").asInt()).isEqualTo(status);
    assertThat(body.path("error").asString()).isEqualTo(error);
    assertThat(body.path("message").asString()).isEqualTo(message);
  }
}
