package dev.threadline.models;

/**
 * Who wrote a message. The system prompt is not a message: it is {@link
 * ModelRequest#instructions()}.
 */
public enum Role {
  USER,
  ASSISTANT,
  /** The result of a tool call, answering the assistant's {@link ToolCall} of the same id. */
  TOOL
}
