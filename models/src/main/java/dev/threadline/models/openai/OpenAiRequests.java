package dev.threadline.models.openai;

import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import java.util.Map;

/** Maps a {@link ModelRequest} to a Chat Completions request with function tools. */
final class OpenAiRequests {

  private OpenAiRequests() {}

  static ChatCompletionCreateParams toParams(ModelRequest request) {
    ChatCompletionCreateParams.Builder params =
        ChatCompletionCreateParams.builder()
            .model(request.model())
            // max_completion_tokens replaces the deprecated max_tokens, which reasoning models
            // reject;
            // vLLM, LiteLLM and recent Ollama accept it too.
            .maxCompletionTokens(request.maxOutputTokens());
    if (request.instructionsOrNull() != null) {
      // "system" rather than "developer": every OpenAI-compatible server understands it.
      params.addSystemMessage(request.instructions());
    }
    for (ChatMessage message : request.messages()) {
      switch (message.role()) {
        case USER -> params.addUserMessage(message.content());
        case ASSISTANT -> params.addMessage(assistant(message));
        case TOOL ->
            params.addMessage(
                ChatCompletionToolMessageParam.builder()
                    .toolCallId(message.toolCallId())
                    .content(message.content())
                    .build());
      }
    }
    for (ToolDefinition tool : request.tools()) {
      params.addTool(function(tool));
    }
    return params.build();
  }

  /** The same request, streamed, with the usage report as the stream's last chunk. */
  static ChatCompletionCreateParams toStreamingParams(ModelRequest request) {
    return toParams(request).toBuilder()
        .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build())
        .build();
  }

  private static ChatCompletionAssistantMessageParam assistant(ChatMessage message) {
    ChatCompletionAssistantMessageParam.Builder assistant =
        ChatCompletionAssistantMessageParam.builder();
    // A tool-calling turn may have no text; the API wants the content then left out, not "".
    if (!message.content().isEmpty() || message.toolCalls().isEmpty()) {
      assistant.content(message.content());
    }
    for (ToolCall call : message.toolCalls()) {
      assistant.addToolCall(
          ChatCompletionMessageFunctionToolCall.builder()
              .id(call.id())
              .function(
                  ChatCompletionMessageFunctionToolCall.Function.builder()
                      .name(call.name())
                      .arguments(call.argumentsJson())
                      .build())
              .build());
    }
    return assistant.build();
  }

  private static ChatCompletionFunctionTool function(ToolDefinition tool) {
    FunctionParameters.Builder parameters = FunctionParameters.builder();
    for (Map.Entry<String, Object> entry : tool.parametersJsonSchema().entrySet()) {
      parameters.putAdditionalProperty(entry.getKey(), JsonValue.from(entry.getValue()));
    }
    FunctionDefinition.Builder function =
        FunctionDefinition.builder().name(tool.name()).parameters(parameters.build());
    if (!tool.description().isEmpty()) {
      function.description(tool.description());
    }
    return ChatCompletionFunctionTool.builder().function(function.build()).build();
  }
}
