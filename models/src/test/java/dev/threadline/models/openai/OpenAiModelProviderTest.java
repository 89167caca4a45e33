package dev.threadline.models.openai;

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
import org.junit.jupiter.params.provider.ValueSource;

class OpenAiModelProviderTest {

  private static final String KEY = "sk-test-0123456789secret";
  private static final ToolDefinition RUN_COMMAND =
      new ToolDefinition(
          "run_command",
          "Runs a shell command",
          Map.of(
              "type",
              "object",
              "properties",
              Map.of("command", Map.of("type", "string")),
              "required",
              List.of("command")));

  private FakeModelServer server;
  private OpenAiModelProvider provider;

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

  private OpenAiModelProvider providerWithTimeout(Duration timeout) {
    return new OpenAiModelProvider(
        new ModelSettings("openai", "gpt-4.1-mini", server.baseUrl() + "/v1", KEY, timeout));
  }

  @Test
  void sendsSystemAndUserMessagesAndReadsTextWithUsage() {
    server.answer(
        200,
        """
        {"id":"chatcmpl-1","object":"chat.completion","created":1762000000,"model":"gpt-4.1-mini",
         "choices":[{"index":0,"message":{"role":"assistant","content":"Paris.","refusal":null,"annotations":[]},
                     "logprobs":null,"finish_reason":"stop"}],
         "usage":{"prompt_tokens":20,"completion_tokens":3,"total_tokens":23,
                  "prompt_tokens_details":{"cached_tokens":8,"audio_tokens":0},
                  "completion_tokens_details":{"reasoning_tokens":0}}}
        """);

    ModelReply reply =
        provider.complete(
            new ModelRequest(
                "gpt-4.1-mini",
                "Answer briefly.",
                List.of(ChatMessage.user("Capital of France?")),
                List.of(),
                256));

    assertThat(reply.text()).isEqualTo("Paris.");
    assertThat(reply.toolCalls()).isEmpty();
    assertThat(reply.stopReason()).isEqualTo(StopReason.END_TURN);
    assertThat(reply.usage()).isEqualTo(new Usage(20, 3, 8));

    FakeModelServer.Received request = server.onlyRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/chat/completions");
    assertThat(request.header("Authorization")).isEqualTo("Bearer " + KEY);
    JsonNode body = request.body();
    assertThat(body.path("model").asText()).isEqualTo("gpt-4.1-mini");
    assertThat(body.path("max_completion_tokens").asInt()).isEqualTo(256);
    assertThat(body.path("messages")).hasSize(2);
    assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
    assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo("Answer briefly.");
    assertThat(body.path("messages").get(1).path("role").asText()).isEqualTo("user");
    assertThat(body.path("messages").get(1).path("content").asText())
        .isEqualTo("Capital of France?");
    assertThat(body.has("tools")).isFalse();
  }

  @Test
  void sendsToolsAndToolHistoryAndReadsToolCalls() {
    server.answer(
        200,
        """
        {"id":"chatcmpl-2","object":"chat.completion","created":1762000000,"model":"gpt-4.1-mini",
         "choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],
             "tool_calls":[{"id":"call_2","type":"function",
                            "function":{"name":"run_command","arguments":"{\\"command\\":\\"cat README.md\\"}"}}]},
           "logprobs":null,"finish_reason":"tool_calls"}],
         "usage":{"prompt_tokens":120,"completion_tokens":18,"total_tokens":138}}
        """);
    List<ChatMessage> history =
        List.of(
            ChatMessage.user("List the files, then show the README"),
            ChatMessage.assistantToolCalls(
                List.of(ToolCall.of("call_1", "run_command", Map.of("command", "ls")))),
            ChatMessage.toolResult("call_1", "{\"exit_code\":0,\"output\":\"README.md\\n\"}"));

    ModelReply reply =
        provider.complete(
            new ModelRequest("gpt-4.1-mini", null, history, List.of(RUN_COMMAND), 1024));

    assertThat(reply.stopReason()).isEqualTo(StopReason.TOOL_USE);
    assertThat(reply.text()).isEmpty();
    assertThat(reply.toolCalls())
        .singleElement()
        .satisfies(call -> {
          assertThat(call.id()).isEqualTo("call_2");
          assertThat(call.name()).isEqualTo("run_command");
          assertThat(call.arguments()).isEqualTo(Map.of("command", "cat README.md"));
        });
    assertThat(reply.usage()).isEqualTo(new Usage(120, 18, 0));

    JsonNode body = server.onlyRequest().body();
    JsonNode tool = body.path("tools").get(0);
    assertThat(tool.path("type").asText()).isEqualTo("function");
    assertThat(tool.path("function").path("name").asText()).isEqualTo("run_command");
    assertThat(tool.path("function").path("description").asText())
        .isEqualTo("Runs a shell command");
    assertThat(
            tool.path("function")
                .path("parameters")
                .path("properties")
                .path("command")
                .path("type")
                .asText())
        .isEqualTo("string");
    assertThat(tool.path("function").path("parameters").path("required").get(0).asText())
        .isEqualTo("command");

    JsonNode messages = body.path("messages");
    assertThat(messages).hasSize(3); // no system message without instructions
    JsonNode assistant = messages.get(1);
    assertThat(assistant.path("role").asText()).isEqualTo("assistant");
    assertThat(assistant.has("content")).as("tool-only turn leaves content out").isFalse();
    JsonNode call = assistant.path("tool_calls").get(0);
    assertThat(call.path("id").asText()).isEqualTo("call_1");
    assertThat(call.path("type").asText()).isEqualTo("function");
    assertThat(call.path("function").path("name").asText()).isEqualTo("run_command");
    assertThat(call.path("function").path("arguments").asText()).isEqualTo("{\"command\":\"ls\"}");
    JsonNode result = messages.get(2);
    assertThat(result.path("role").asText()).isEqualTo("tool");
    assertThat(result.path("tool_call_id").asText()).isEqualTo("call_1");
    assertThat(result.path("content").asText())
        .isEqualTo("{\"exit_code\":0,\"output\":\"README.md\\n\"}");
  }

  @Test
  void toolCallsWinOverAStopFinishReason() {
    // Some compatible servers report "stop" together with tool calls; the loop must still run them.
    server.answer(
        200,
        """
        {"id":"c","object":"chat.completion","created":1,"model":"llama3.1",
         "choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"",
            "tool_calls":[{"id":"call_9","type":"function","function":{"name":"run_command","arguments":"{\\"command\\":\\"pwd\\"}"}}]}}]}
        """);

    ModelReply reply =
        provider.complete(
            new ModelRequest(
                "llama3.1",
                null,
                List.of(ChatMessage.user("where am I")),
                List.of(RUN_COMMAND),
                100));

    assertThat(reply.stopReason()).isEqualTo(StopReason.TOOL_USE);
    assertThat(reply.toolCalls()).extracting(ToolCall::name).containsExactly("run_command");
    assertThat(reply.usage()).isEqualTo(Usage.ZERO);
  }

  @Test
  void lengthFinishReasonMeansMaxTokens() {
    server.answer(
        200,
        """
        {"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1-mini",
         "choices":[{"index":0,"finish_reason":"length","message":{"role":"assistant","content":"Once upon a"}}],
         "usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}
        """);

    ModelReply reply =
        provider.complete(
            ModelRequest.of("gpt-4.1-mini", null, List.of(ChatMessage.user("story"))));

    assertThat(reply.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
    assertThat(reply.text()).isEqualTo("Once upon a");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // a tool call without an id, as some compatible servers write it
        "\"tool_calls\":[{\"id\":\"\",\"type\":\"function\",\"function\":{\"name\":\"run_command\","
            + "\"arguments\":\"{}\"}}]}}]",
        // token counts below zero
        "\"content\":\"Hi\"}}],\"usage\":{\"prompt_tokens\":-5,\"completion_tokens\":3,"
            + "\"total_tokens\":-2}"
      })
  void aMalformedAnswerIsAnInvalidReplyNotACrash(String rest) {
    server.answer(
        200,
        "{\"id\":\"c\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"message\":{\"role\":"
            + "\"assistant\","
            + rest
            + "}");

    ModelException failure = failedHi("m");

    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
    assertThat(failure.getMessage()).contains("the answer is malformed");
  }

  @ParameterizedTest
  @CsvSource({
    "401, invalid_api_key, AUTH",
    "403, unsupported_country_region_territory, AUTH",
    "429, rate_limit_exceeded, RATE_LIMITED",
    "400, context_length_exceeded, BAD_REQUEST",
    "404, model_not_found, BAD_REQUEST",
    "500, server_error, UNAVAILABLE",
    "503, overloaded, UNAVAILABLE"
  })
  void mapsHttpErrorsToCodesWithoutRetryingOrLeakingTheKey(
      int status, String errorCode, ModelErrorCode expected) {
    // OpenAI quotes the key it rejected in its message; ours must not repeat it.
    server.answer(
        status,
        """
        {"error":{"message":"Incorrect API key provided: %s. Or something else went wrong.",
                  "type":"invalid_request_error","param":null,"code":"%s"}}
        """
            .formatted(KEY, errorCode));

    ModelException failure = failedHi("gpt-4.1-mini");

    assertThat(failure.code()).isEqualTo(expected);
    assertThat(failure.httpStatus()).isEqualTo(status);
    assertThat(failure.provider()).isEqualTo("openai");
    assertThat(failure.getMessage())
        .contains(expected.code())
        .contains("something else went wrong")
        .doesNotContain(KEY);
    assertThat(failure.getCause()).isNull();
    server.onlyRequest(); // maxRetries(0): exactly one attempt, the caller decides
  }

  @Test
  void slowAnswerIsATimeout() {
    provider.close();
    provider = providerWithTimeout(Duration.ofMillis(300));
    server.answerAfter(Duration.ofSeconds(5), 200, "{}");

    long start = System.nanoTime();
    ModelException failure = failedHi("gpt-4.1-mini");

    assertThat(failure.code()).isEqualTo(ModelErrorCode.TIMEOUT);
    assertThat(failure.retryable()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
  }

  @Test
  void unreachableServerIsUnavailable() {
    String url = server.baseUrl();
    server.close(); // nothing listens on the port any more
    provider.close();
    provider =
        new OpenAiModelProvider(
            new ModelSettings("openai", "m", url + "/v1", KEY, Duration.ofSeconds(5)));

    ModelException failure = failedHi("m");

    assertThat(failure.code()).isEqualTo(ModelErrorCode.UNAVAILABLE);
    assertThat(failure.getMessage()).doesNotContain(KEY);
  }

  /** What completing a "hi" to {@code model} failed with. */
  private ModelException failedHi(String model) {
    return catchThrowableOfType(
        ModelException.class,
        () -> provider.complete(ModelRequest.of(model, null, List.of(ChatMessage.user("hi")))));
  }
}
