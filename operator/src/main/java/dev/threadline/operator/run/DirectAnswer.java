package dev.threadline.operator.run;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.TextDeltas;
import dev.threadline.models.ToolDefinition;
import dev.threadline.models.Usage;
import dev.threadline.operator.model.AgentProfile;
import dev.threadline.operator.model.ModelFailures;
import java.util.List;
import java.util.Optional;

/**
 * The direct path: one model call with the thread's history and the agent's instructions. When the
 * call offers {@link ComputerHandoff#TOOL}, the model may hand the message on instead of answering.
 * The text is streamed to a {@link TextDeltas} listener as the model writes it.
 */
public final class DirectAnswer {
  static final String ATTACHMENTS_NOTE =
      "Files are attached to the latest message; only the computer can read them.";

  /**
   * What the one call gave.
   *
   * @param outcome the answer (or why there is none); meaningless when handed off
   * @param handoff what the model said when it handed the message to the computer; empty for an
   *     answer
   * @param modelFailed whether the model could not be reached or refused the call
   */
  public record Turn(
      RunOutcome outcome, Optional<ComputerHandoff.Handoff> handoff, boolean modelFailed) {}

  /** Answers without the hand-off tool: the route is already decided. */
  public RunOutcome answer(
      AgentProfile agent, ModelProvider provider, List<ChatMessage> history, TextDeltas deltas) {
    return call(agent, provider, agent.instructions(), history, List.of(), deltas).outcome();
  }

  /**
   * Answers, or lets the model hand the message to the computer, in one call. Attached files are
   * not part of the history, so the model is told of them: only the computer can read them.
   */
  public Turn answerOrHandOff(
      AgentProfile agent,
      ModelProvider provider,
      List<ChatMessage> history,
      boolean hasAttachments,
      TextDeltas deltas) {
    String instructions =
        hasAttachments
            ? (agent.instructions() == null ? "" : agent.instructions() + "\n\n") + ATTACHMENTS_NOTE
            : agent.instructions();
    return call(agent, provider, instructions, history, List.of(ComputerHandoff.TOOL), deltas);
  }

  private static Turn call(
      AgentProfile agent,
      ModelProvider provider,
      String instructions,
      List<ChatMessage> history,
      List<ToolDefinition> tools,
      TextDeltas deltas) {
    try {
      ModelReply reply =
          provider.stream(
              new ModelRequest(
                  agent.model(),
                  instructions,
                  history,
                  tools,
                  ModelRequest.DEFAULT_MAX_OUTPUT_TOKENS),
              deltas);
      return new Turn(
          RunOutcome.answered(reply.text(), reply.usage()), ComputerHandoff.of(reply), false);
    } catch (ModelException e) {
      return new Turn(
          RunOutcome.failed(
              ModelFailures.runErrorCode(e),
              "The model could not answer: " + e.getMessage(),
              Usage.ZERO),
          Optional.empty(),
          true);
    }
  }
}
