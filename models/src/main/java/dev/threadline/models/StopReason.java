package dev.threadline.models;

/** Why the model stopped writing, in the terms the agent loop acts on. */
public enum StopReason {
  /** The model finished its answer. */
  END_TURN,
  /** The model wants the caller to run the reply's tool calls and send back their results. */
  TOOL_USE,
  /** The answer was cut at {@link ModelRequest#maxOutputTokens()}. */
  MAX_TOKENS,
  /** Anything else the provider reports (content filter, stop sequence, refusal...). */
  OTHER
}
