package dev.threadline.models;

import java.util.List;
import java.util.Objects;

/**
 * Everything one model call needs; providers keep no state between calls.
 *
 * @param model the provider's model name, e.g. {@code gpt-4.1-mini}
 * @param instructions the system prompt; null or blank for none
 * @param messages the conversation so far, oldest first; not empty
 * @param tools the tools the model may call; empty for a plain answer
 * @param maxOutputTokens the most tokens the reply may have
 */
public record ModelRequest(
    String model,
    String instructions,
    List<ChatMessage> messages,
    List<ToolDefinition> tools,
    int maxOutputTokens) {

  /** Enough for a direct answer or one agent step; callers with longer outputs say so. */
  public static final int DEFAULT_MAX_OUTPUT_TOKENS = 4096;

  public ModelRequest {
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException("a model request needs a model name");
    }
    Objects.requireNonNull(messages, "messages");
    messages = List.copyOf(messages);
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a model request needs at least one message");
    }
    tools = tools == null ? List.of() : List.copyOf(tools);
    if (maxOutputTokens <= 0) {
      throw new IllegalArgumentException(
          "maxOutputTokens must be positive, was " + maxOutputTokens);
    }
  }

  /** A request without tools and with the default output budget. */
  public static ModelRequest of(String model, String instructions, List<ChatMessage> messages) {
    return new ModelRequest(model, instructions, messages, List.of(), DEFAULT_MAX_OUTPUT_TOKENS);
  }

  /** The system prompt, or null when there is none. */
  public String instructionsOrNull() {
    return instructions == null || instructions.isBlank() ? null : instructions;
  }

  public ModelRequest withTools(List<ToolDefinition> newTools) {
    return new ModelRequest(model, instructions, messages, newTools, maxOutputTokens);
  }

  public ModelRequest withMessages(List<ChatMessage> newMessages) {
    return new ModelRequest(model, instructions, newMessages, tools, maxOutputTokens);
  }
}
