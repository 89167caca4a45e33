package dev.threadline.models.openai;

import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.completions.CompletionUsage;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelReply;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import java.util.ArrayList;
import java.util.List;

/** Maps a Chat Completions answer to a {@link ModelReply}. */
final class OpenAiReplies {

  private OpenAiReplies() {}

  static ModelReply toReply(ChatCompletion completion) {
    if (completion.choices().isEmpty()) {
      throw new ModelException(
          OpenAiModelProvider.NAME, ModelErrorCode.INVALID_REPLY, "the answer has no choices");
    }
    ChatCompletion.Choice choice = completion.choices().get(0);
    ChatCompletionMessage message = choice.message();
    String text = message.content().or(message::refusal).orElse("");
    try {
      List<ToolCall> toolCalls = toolCalls(message);
      return new ModelReply(
          text, toolCalls, usage(completion), stopReason(choice, !toolCalls.isEmpty()));
    } catch (IllegalArgumentException malformed) {
      // A tool call without an id or name, negative token counts: a failed call, not a crash.
      throw new ModelException(
          OpenAiModelProvider.NAME,
          ModelErrorCode.INVALID_REPLY,
          "the answer is malformed: " + malformed.getMessage());
    }
  }

  private static List<ToolCall> toolCalls(ChatCompletionMessage message) {
    List<ToolCall> calls = new ArrayList<>();
    for (ChatCompletionMessageToolCall call : message.toolCalls().orElse(List.of())) {
      // Custom (free-text) tools are never offered, so only function calls can come back.
      if (call.isFunction()) {
        ChatCompletionMessageFunctionToolCall function = call.asFunction();
        calls.add(
            new ToolCall(
                function.id(), function.function().name(), function.function().arguments()));
      }
    }
    return calls;
  }

  private static Usage usage(ChatCompletion completion) {
    return completion.usage().map(OpenAiReplies::usage).orElse(Usage.ZERO);
  }

  private static Usage usage(CompletionUsage usage) {
    long cached = usage.promptTokensDetails().flatMap(details -> details.cachedTokens()).orElse(0L);
    // prompt_tokens already includes the cached ones; guard against servers that disagree.
    return new Usage(
        usage.promptTokens(), usage.completionTokens(), Math.min(cached, usage.promptTokens()));
  }

  private static StopReason stopReason(ChatCompletion.Choice choice, boolean hasToolCalls) {
    // Some compatible servers (older Ollama, some vLLM parsers) say "stop" although they call
    // tools.
    if (hasToolCalls) {
      return StopReason.TOOL_USE;
    }
    String reason = choice._finishReason().asKnown().map(r -> r.asString()).orElse("");
    return switch (reason) {
      case "stop" -> StopReason.END_TURN;
      case "tool_calls", "function_call" -> StopReason.TOOL_USE;
      case "length" -> StopReason.MAX_TOKENS;
      default -> StopReason.OTHER;
    };
  }
}
