package dev.threadline.runner.run;

import dev.threadline.core.events.RunnerFailureCode;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.ToolCall;
import dev.threadline.models.Usage;
import dev.threadline.runner.tools.Tool;
import dev.threadline.runner.tools.ToolRegistry;
import dev.threadline.runner.tools.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Model ↔ tools until the model ends its turn. Each model call is a turn; its text becomes a {@code
 * reasoning} event when it comes with tool calls, a {@code message} when it ends the run; each tool
 * call becomes a {@code tool_call} event and a tool result the model reads next turn.
 */
final class AgentLoop {

  /** How the loop ended. */
  sealed interface Outcome {
    /** The model ended its turn; {@code response} is its last text. */
    record Finished(String response) implements Outcome {}

    record Failed(RunnerFailureCode code, String message) implements Outcome {}
  }

  private static final Logger log = LoggerFactory.getLogger(AgentLoop.class);

  private final ModelProvider model;
  private final String modelName;
  private final ToolRegistry tools;
  private final RunEvents events;
  private final ActionLog actions;
  private final RunInput.Limits limits;
  private final BooleanSupplier cancelled;
  private final UnaryOperator<String> redact;
  private Usage usage = Usage.ZERO;

  /**
   * @param cancelled asked before every turn and tool call
   * @param redact applied to every model error message, so a key a provider echoes never reaches an
   *     event
   */
  AgentLoop(
      ModelProvider model,
      String modelName,
      ToolRegistry tools,
      RunEvents events,
      ActionLog actions,
      RunInput.Limits limits,
      BooleanSupplier cancelled,
      UnaryOperator<String> redact) {
    this.model = model;
    this.modelName = modelName;
    this.tools = tools;
    this.events = events;
    this.actions = actions;
    this.limits = limits;
    this.cancelled = cancelled;
    this.redact = redact;
  }

  Outcome run(String instructions, List<ChatMessage> opening) {
    List<ChatMessage> messages = new ArrayList<>(opening);
    for (int turn = 1; turn <= limits.maxTurns(); turn++) {
      if (cancelled.getAsBoolean()) {
        return cancelledOutcome();
      }
      ModelReply reply;
      try {
        reply =
            model.complete(
                new ModelRequest(
                    modelName,
                    instructions,
                    messages,
                    tools.definitions(),
                    limits.maxOutputTokens()));
      } catch (ModelException e) {
        return new Outcome.Failed(RunnerFailureCode.EXECUTION_FAILED, redact.apply(e.getMessage()));
      } catch (RuntimeException e) {
        log.warn("Model call failed unexpectedly", e);
        return new Outcome.Failed(
            RunnerFailureCode.EXECUTION_FAILED,
            redact.apply(
                "model call failed: " + e.getClass().getSimpleName() + ": " + e.getMessage()));
      }
      usage = usage.plus(reply.usage());
      if (!reply.hasToolCalls()) {
        if (!reply.text().isBlank()) {
          events.message(reply.text());
        }
        events.usage(usage);
        return new Outcome.Finished(reply.text());
      }
      if (!reply.text().isBlank()) {
        events.reasoning(reply.text());
      }
      events.usage(usage);
      messages.add(ChatMessage.fromReply(reply));
      for (ToolCall call : reply.toolCalls()) {
        if (cancelled.getAsBoolean()) {
          return cancelledOutcome();
        }
        messages.add(ChatMessage.toolResult(call.id(), runTool(call)));
      }
    }
    return new Outcome.Failed(
        RunnerFailureCode.EXECUTION_FAILED,
        "turn limit reached: the model was still calling tools after "
            + limits.maxTurns()
            + " turns");
  }

  /** The model calls since the run began, added up. */
  Usage usage() {
    return usage;
  }

  /** Runs one call and reports it; returns what the model reads. */
  private String runTool(ToolCall call) {
    Optional<Tool> tool = tools.find(call.name());
    if (tool.isEmpty()) {
      String problem = "the model called an unknown tool '" + call.name() + "'";
      events.error(problem);
      return "error: unknown tool '"
          + call.name()
          + "'; the tools are "
          + String.join(", ", tools.names());
    }
    long start = System.nanoTime();
    ToolResult result = ToolRegistry.execute(tool.get(), call);
    long durationMs = (System.nanoTime() - start) / 1_000_000;
    events.toolCall(call.name(), result, durationMs);
    actions.record(call.name(), result);
    return result.forModel();
  }

  private static Outcome cancelledOutcome() {
    return new Outcome.Failed(RunnerFailureCode.EXECUTION_FAILED, "cancelled");
  }
}
