package dev.threadline.models;

import java.util.List;
import java.util.Objects;

/**
 * The model's turn.
 *
 * @param text what the model wrote; empty (never null) when it only calls tools
 * @param toolCalls the tools it wants run, in order; empty for a final answer
 * @param usage tokens this call consumed
 * @param stopReason why it stopped
 */
public record ModelReply(
    String text, List<ToolCall> toolCalls, Usage usage, StopReason stopReason) {

  public ModelReply {
    text = Objects.requireNonNullElse(text, "");
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    usage = Objects.requireNonNullElse(usage, Usage.ZERO);
    Objects.requireNonNull(stopReason, "stopReason");
  }

  public boolean hasToolCalls() {
    return !toolCalls.isEmpty();
  }
}
