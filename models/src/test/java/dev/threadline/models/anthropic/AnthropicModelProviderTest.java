package dev.threadline.models.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.FakeModelServer;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.ModelSettings;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import dev.threadline.models.Usage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AnthropicModelProviderTest {

  private static final String KEY = "sk-ant-test-0123456789secret";
  private static final ToolDefinition RUN_COMMAND =
      new ToolDefinition(
          "run_command",
          "Runs a shell command",
          Map.of(
              "type",
              "object",
              "properties",
              Map.of("command", Map.of("type", "string", "description", "the command line")),
              "required",
              List.of("command"),
              "additionalProperties",
              false));

  private FakeModelServer server;
  private AnthropicModelProvider provider;

  @BeforeEach
  void start() throws Exception {
    server = new FakeModelServer();
    provider = providerWithTimeout(Duration.ofSeconds(10));
  }

  @AfterEach
  void stop() {
    provider.close();
    server.close();
  }

  private AnthropicModelProvider providerWithTimeout(Duration timeout) {
    return new AnthropicModelProvider(
        new ModelSettings("anthropic", "claude-sonnet-4-5", server.baseUrl(), KEY, timeout));
  }

  @Test
  void sendsSystemAndUserMessageAndReadsTextWithUsage() {
    server.answer(
        200,
        """
        {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5",
         "content":[{"type":"text","text":"Paris."}],
         "stop_reason":"end_turn","stop_sequence":null,
         "usage":{"input_tokens":12,"output_tokens":3,"cache_read_input_tokens":30,"cache_creation_input_tokens":0}}
        """);

    ModelReply reply =
        provider.complete(
            new ModelRequest(
                "claude-sonnet-4-5",
                "Answer briefly.",
                List.of(ChatMessage.user("Capital of France?")),
                List.of(),
                256));

    assertThat(reply.text()).isEqualTo("Paris.");
    assertThat(reply.toolCalls()).isEmpty();
    assertThat(reply.stopReason()).isEqualTo(StopReason.END_TURN);
    // Anthropic counts cache reads apart from input_tokens; Usage counts the whole prompt as input.
    assertThat(reply.usage()).isEqualTo(new Usage(42, 3, 30));

    FakeModelServer.Received request = server.onlyRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/messages");
    assertThat(request.header("x-api-key")).isEqualTo(KEY);
    assertThat(request.header("Authorization")).as("the key travels once, in x-api-key").isNull();
    assertThat(request.header("anthropic-version")).isNotBlank();
    JsonNode body = request.body();
    assertThat(body.path("model").asText()).isEqualTo("claude-sonnet-4-5");
    assertThat(body.path("max_tokens").asInt()).isEqualTo(256);
    assertThat(body.path("system").asText()).isEqualTo("Answer briefly.");
    assertThat(body.path("messages")).hasSize(1);
    JsonNode user = body.path("messages").get(0);
    assertThat(user.path("role").asText()).isEqualTo("user");
    assertThat(user.path("content").get(0).path("type").asText()).isEqualTo("text");
    assertThat(user.path("content").get(0).path("text").asText()).isEqualTo("Capital of France?");
    assertThat(body.has("tools")).isFalse();
  }

  @Test
  void sendsToolsAndGroupsToolResultsAndReadsToolUse() {
    server.answer(
        200,
        """
        {"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-5",
         "content":[{"type":"text","text":"Now the README."},
                    {"type":"tool_use","id":"toolu_03","name":"run_command","input":{"command":"cat README.md"}}],
         "stop_reason":"tool_use","stop_sequence":null,
         "usage":{"input_tokens":300,"output_tokens":40}}
        """);
    List<ChatMessage> history =
        List.of(
            ChatMessage.user("Show the date and the files, then the README"),
            ChatMessage.assistantToolCalls(
                "Two commands first.",
                List.of(
                    ToolCall.of("toolu_01", "run_command", Map.of("command", "date")),
                    ToolCall.of("toolu_02", "run_command", Map.of("command", "ls")))),
            ChatMessage.toolResult("toolu_01", "{\"exit_code\":0,\"output\":\"Tue\"}"),
            ChatMessage.toolResult("toolu_02", "{\"exit_code\":0,\"output\":\"README.md\"}"));

    ModelReply reply =
        provider.complete(
            new ModelRequest(
                "claude-sonnet-4-5", "Be careful.", history, List.of(RUN_COMMAND), 1024));

    assertThat(reply.stopReason()).isEqualTo(StopReason.TOOL_USE);
    assertThat(reply.text()).isEqualTo("Now the README.");
    assertThat(reply.toolCalls())
        .singleElement()
        .satisfies(call -> {
          assertThat(call.id()).isEqualTo("toolu_03");
          assertThat(call.name()).isEqualTo("run_command");
          assertThat(call.arguments()).isEqualTo(Map.of("command", "cat README.md"));
        });
    assertThat(reply.usage()).isEqualTo(new Usage(300, 40, 0));

    JsonNode body = server.onlyRequest().body();
    JsonNode tool = body.path("tools").get(0);
    assertThat(tool.path("name").asText()).isEqualTo("run_command");
    assertThat(tool.path("description").asText()).isEqualTo("Runs a shell command");
    JsonNode schema = tool.path("input_schema");
    assertThat(schema.path("type").asText()).isEqualTo("object");
    assertThat(schema.path("properties").path("command").path("type").asText()).isEqualTo("string");
    assertThat(schema.path("required").get(0).asText()).isEqualTo("command");
    assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();

    JsonNode messages = body.path("messages");
    assertThat(messages).as("user, assistant, and ONE user message with both results").hasSize(3);
    JsonNode assistant = messages.get(1);
    assertThat(assistant.path("role").asText()).isEqualTo("assistant");
    assertThat(assistant.path("content")).hasSize(3);
    assertThat(assistant.path("content").get(0).path("text").asText())
        .isEqualTo("Two commands first.");
    JsonNode toolUse = assistant.path("content").get(1);
    assertThat(toolUse.path("type").asText()).isEqualTo("tool_use");
    assertThat(toolUse.path("id").asText()).isEqualTo("toolu_01");
    assertThat(toolUse.path("name").asText()).isEqualTo("run_command");
    assertThat(toolUse.path("input").path("command").asText()).isEqualTo("date");
    assertThat(assistant.path("content").get(2).path("id").asText()).isEqualTo("toolu_02");

    JsonNode results = messages.get(2);
    assertThat(results.path("role").asText()).isEqualTo("user");
    assertThat(results.path("content")).hasSize(2);
    assertThat(results.path("content").get(0).path("type").asText()).isEqualTo("tool_result");
    assertThat(results.path("content").get(0).path("tool_use_id").asText()).isEqualTo("toolu_01");
    assertThat(results.path("content").get(0).path("content").asText())
        .isEqualTo("{\"exit_code\":0,\"output\":\"Tue\"}");
    assertThat(results.path("content").get(1).path("tool_use_id").asText()).isEqualTo("toolu_02");
  }

  @Test
  void aUserMessageAfterToolResultsJoinsTheirMessageAfterThem() {
    server.answer(
        200,
        """
        {"id":"msg_04","type":"message","role":"assistant","model":"claude-sonnet-4-5",
         "content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","stop_sequence":null,
         "usage":{"input_tokens":50,"output_tokens":2}}
        """);
    List<ChatMessage> history =
        List.of(
            ChatMessage.user("run ls"),
            ChatMessage.assistantToolCalls(
                List.of(ToolCall.of("toolu_01", "run_command", Map.of("command", "ls")))),
            ChatMessage.toolResult("toolu_01", ""),
            ChatMessage.user("and stop there"));

    provider.complete(
        new ModelRequest("claude-sonnet-4-5", null, history, List.of(RUN_COMMAND), 100));

    JsonNode messages = server.onlyRequest().body().path("messages");
    assertThat(messages).hasSize(3); // roles alternate: user, assistant, user
    JsonNode last = messages.get(2).path("content");
    assertThat(last.get(0).path("type").asText()).isEqualTo("tool_result");
    assertThat(last.get(0).path("content").asText())
        .as("empty results are not sent empty")
        .isEqualTo("(no content)");
    assertThat(last.get(1).path("type").asText()).isEqualTo("text");
    assertThat(last.get(1).path("text").asText()).isEqualTo("and stop there");
    assertThat(messages.get(1).path("content"))
        .as("a tool-only turn has no empty text block")
        .hasSize(1);
  }

  @Test
  void maxTokensStopReason() {
    server.answer(
        200,
        """
        {"id":"msg_03","type":"message","role":"assistant","model":"claude-sonnet-4-5",
         "content":[{"type":"text","text":"Once upon a"}],"stop_reason":"max_tokens","stop_sequence":null,
         "usage":{"input_tokens":5,"output_tokens":3}}
        """);

    ModelReply reply =
        provider.complete(
            ModelRequest.of("claude-sonnet-4-5", null, List.of(ChatMessage.user("story"))));

    assertThat(reply.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
  }

  @Test
  void negativeTokenCountsAreAnInvalidReplyNotACrash() {
    server.answer(
        200,
        """
        {"id":"msg_04","type":"message","role":"assistant","model":"claude-sonnet-4-5",
         "content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","stop_sequence":null,
         "usage":{"input_tokens":-5,"output_tokens":3}}
        """);

    ModelException failure = failedHi();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
    assertThat(failure.getMessage()).contains("the answer is malformed");
  }

  @ParameterizedTest
  @CsvSource({
    "401, authentication_error, AUTH",
    "403, permission_error, AUTH",
    "429, rate_limit_error, RATE_LIMITED",
    "400, invalid_request_error, BAD_REQUEST",
    "500, api_error, UNAVAILABLE",
    "529, overloaded_error, UNAVAILABLE"
  })
  void mapsHttpErrorsToCodesWithoutRetryingOrLeakingTheKey(
      int status, String type, ModelErrorCode expected) {
    server.answer(
        status,
        """
        {"type":"error","error":{"type":"%s","message":"key %s was refused, or something else went wrong"}}
        """
            .formatted(type, KEY));

    ModelException failure = failedHi();

    assertThat(failure.code()).isEqualTo(expected);
    assertThat(failure.httpStatus()).isEqualTo(status);
    assertThat(failure.provider()).isEqualTo("anthropic");
    assertThat(failure.getMessage())
        .contains(expected.code())
        .contains("something else went wrong")
        .doesNotContain(KEY);
    server.onlyRequest(); // maxRetries(0): exactly one attempt
  }

  @Test
  void slowAnswerIsATimeout() {
    provider.close();
    provider = providerWithTimeout(Duration.ofMillis(300));
    server.answerAfter(Duration.ofSeconds(5), 200, "{}");

    ModelException failure = failedHi();

    assertThat(failure.code()).isEqualTo(ModelErrorCode.TIMEOUT);
    assertThat(failure.getMessage()).contains("300 ms");
  }

  /** What completing a "hi" failed with. */
  private ModelException failedHi() {
    return catchThrowableOfType(
        ModelException.class,
        () ->
            provider.complete(
                ModelRequest.of("claude-sonnet-4-5", null, List.of(ChatMessage.user("hi")))));
  }
}
