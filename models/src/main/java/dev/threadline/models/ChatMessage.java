package dev.threadline.models;

import java.util.List;
import java.util.Objects;

/**
 * One message of a conversation, in the shape every provider can be mapped to.
 *
 * @param role who wrote it
 * @param content the text; empty (never null) for an assistant turn that only calls tools
 * @param toolCalls the tools an {@link Role#ASSISTANT} message asked to run; empty otherwise
 * @param toolCallId for a {@link Role#TOOL} message, the {@link ToolCall#id()} it answers; null
 *     otherwise
 */
public record ChatMessage(Role role, String content, List<ToolCall> toolCalls, String toolCallId) {

  public ChatMessage {
    Objects.requireNonNull(role, "role");
    content = Objects.requireNonNullElse(content, "");
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    if (!toolCalls.isEmpty() && role != Role.ASSISTANT) {
      throw new IllegalArgumentException("only assistant messages carry tool calls");
    }
    if (role == Role.TOOL && (toolCallId == null || toolCallId.isBlank())) {
      throw new IllegalArgumentException("a tool result needs the id of the tool call it answers");
    }
    if (role != Role.TOOL && toolCallId != null) {
      throw new IllegalArgumentException("only tool results carry a toolCallId");
    }
  }

  public static ChatMessage user(String content) {
    return new ChatMessage(Role.USER, content, List.of(), null);
  }

  public static ChatMessage assistant(String content) {
    return new ChatMessage(Role.ASSISTANT, content, List.of(), null);
  }

  /** An assistant turn that calls tools, with no text. */
  public static ChatMessage assistantToolCalls(List<ToolCall> toolCalls) {
    return assistantToolCalls("", toolCalls);
  }

  /** An assistant turn with some text (models often think aloud) and tool calls. */
  public static ChatMessage assistantToolCalls(String content, List<ToolCall> toolCalls) {
    return new ChatMessage(Role.ASSISTANT, content, toolCalls, null);
  }

  /** The result of running the tool call {@code toolCallId}. */
  public static ChatMessage toolResult(String toolCallId, String content) {
    return new ChatMessage(Role.TOOL, content, List.of(), toolCallId);
  }

  /** The assistant message that records {@code reply} in the conversation history. */
  public static ChatMessage fromReply(ModelReply reply) {
    return new ChatMessage(Role.ASSISTANT, reply.text(), reply.toolCalls(), null);
  }
}
