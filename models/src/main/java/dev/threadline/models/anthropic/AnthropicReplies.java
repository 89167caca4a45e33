package dev.threadline.models.anthropic;

import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.ToolUseBlock;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelReply;
import dev.threadline.models.StopReason;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import java.util.ArrayList;
import java.util.List;

/** Maps a Messages API answer to a {@link ModelReply}. */
final class AnthropicReplies {

  private static final ObjectMapper JSON = new ObjectMapper();

  private AnthropicReplies() {}

  static ModelReply toReply(Message message) {
    StringBuilder text = new StringBuilder();
    List<ToolCall> toolCalls = new ArrayList<>();
    for (ContentBlock block : message.content()) {
      block
          .text()
          .ifPresent(textBlock -> {
            if (!text.isEmpty()) {
              text.append("\n\n");
            }
            text.append(textBlock.text());
          });
      block.toolUse().ifPresent(toolUse -> toolCalls.add(toolCall(toolUse)));
      // Thinking and server-tool blocks are the provider's business: the agent loop needs neither.
    }
    try {
      return new ModelReply(
          text.toString(),
          toolCalls,
          usage(message.usage()),
          stopReason(message, !toolCalls.isEmpty()));
    } catch (IllegalArgumentException malformed) {
      // Negative token counts: a failed call, not a crash.
      throw new ModelException(
          AnthropicModelProvider.NAME,
          ModelErrorCode.INVALID_REPLY,
          "the answer is malformed: " + malformed.getMessage());
    }
  }

  private static ToolCall toolCall(ToolUseBlock toolUse) {
    try {
      JsonNode input = toolUse._input().convert(JsonNode.class);
      return new ToolCall(
          toolUse.id(), toolUse.name(), input == null ? "{}" : JSON.writeValueAsString(input));
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new ModelException(
          AnthropicModelProvider.NAME,
          ModelErrorCode.INVALID_REPLY,
          "the input of tool call " + toolUse.id() + " is not JSON");
    }
  }

  /**
   * Anthropic counts cache reads and cache writes apart from {@code input_tokens}; {@link Usage}
   * counts the whole prompt as input, with the cache reads as its cached part. Cache writes are
   * billed near the input price, so they stay plain input.
   */
  private static Usage usage(com.anthropic.models.messages.Usage usage) {
    long cacheRead = usage.cacheReadInputTokens().orElse(0L);
    long cacheWrite = usage.cacheCreationInputTokens().orElse(0L);
    return new Usage(usage.inputTokens() + cacheRead + cacheWrite, usage.outputTokens(), cacheRead);
  }

  private static StopReason stopReason(Message message, boolean hasToolCalls) {
    String reason = message._stopReason().asKnown().map(r -> r.asString()).orElse("");
    return switch (reason) {
      case "end_turn" -> StopReason.END_TURN;
      case "tool_use" -> StopReason.TOOL_USE;
      case "max_tokens" -> StopReason.MAX_TOKENS;
      default -> hasToolCalls ? StopReason.TOOL_USE : StopReason.OTHER;
    };
  }
}
