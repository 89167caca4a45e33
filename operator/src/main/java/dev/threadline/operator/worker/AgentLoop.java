package dev.threadline.operator.worker;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.crds.run.RunErrorCode;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.TextDeltas;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import dev.threadline.models.Usage;
import dev.threadline.operator.computer.AgentOutcome;
import dev.threadline.operator.deltas.Deltas;
import dev.threadline.operator.model.ModelFailures;
import dev.threadline.operator.tracing.AgentTracing;
import dev.threadline.operator.usage.UsageLimits;
import dev.threadline.operator.worker.mcp.McpConnections;
import dev.threadline.operator.worker.mcp.McpTool;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Model ↔ sandbox until the model ends its turn, one recorded step at a time: after every model
 * reply and every tool result the run's memory is written, so that another worker goes on from
 * there. Each model call is a turn; its text becomes a {@code reasoning} event when it comes with
 * tool calls and a {@code message} when it ends the run; each tool call becomes a {@code tool_call}
 * event and a tool result the model reads next turn. Usage only ever comes from the model's
 * replies.
 */
final class AgentLoop {
  private static final Logger LOG = LoggerFactory.getLogger(AgentLoop.class);

  /** What a step recorder does with the memory: write it (and wait for the events before it). */
  interface Recorder {
    void record(RunMemory memory);
  }

  private final RunTask task;
  private final ModelProvider model;
  private final SandboxTools tools;
  private final McpConnections mcp;
  private final SandboxCalls sandbox;
  private final WorkerEvents events;
  private final Recorder recorder;
  private final BooleanSupplier stopped;
  private final UnaryOperator<String> redact;
  private final java.util.function.Predicate<Usage> overAllowance;
  private final AgentTracing tracing;
  private final Deltas deltas;
  private final CallApprovals approvals;

  AgentLoop(
      RunTask task,
      ModelProvider model,
      SandboxCalls sandbox,
      McpConnections mcp,
      WorkerEvents events,
      Recorder recorder,
      BooleanSupplier stopped,
      UnaryOperator<String> redact,
      java.util.function.Predicate<Usage> overAllowance,
      AgentTracing tracing,
      Deltas deltas,
      CallApprovals approvals) {
    this.deltas = deltas;
    this.approvals = approvals;
    this.task = task;
    this.model = model;
    this.tools = new SandboxTools(task.limits().commandTimeoutSeconds());
    this.sandbox = sandbox;
    this.mcp = mcp;
    this.events = events;
    this.recorder = recorder;
    this.stopped = stopped;
    this.redact = redact;
    this.overAllowance = overAllowance;
    this.tracing = tracing;
  }

  /** Ends in a finished memory and the outcome; empty when the loop was stopped from outside. */
  Optional<Ended> run(RunMemory start, java.util.function.LongSupplier elapsedMs)
      throws InterruptedException {
    RunMemory memory = start;
    boolean resumed = true; // the first unanswered call may have been in flight at a failover
    while (true) {
      if (stopped.getAsBoolean()) {
        return Optional.empty();
      }
      Optional<String> reply = memory.finalReply();
      if (reply.isPresent()) {
        return Optional.of(finish(memory, reply.get(), elapsedMs.getAsLong()));
      }
      List<ToolCall> unanswered = memory.unansweredCalls();
      if (!unanswered.isEmpty()) {
        ToolCall call = unanswered.get(0);
        memory = answer(memory, call, resumed);
        if (memory == null) {
          return Optional.empty(); // stopped while the call waited for a person
        }
        resumed = false;
        recorder.record(memory);
        continue;
      }
      resumed = false;
      if (memory.turns() >= task.limits().maxTurns()) {
        return Optional.of(
            new Ended(
                memory,
                AgentOutcome.failed(
                    RunErrorCode.EXECUTION_FAILED,
                    "turn limit reached: the model was still calling tools after "
                        + task.limits().maxTurns()
                        + " turns")));
      }
      ModelReply answer;
      try {
        answer =
            model.stream(
                new ModelRequest(
                    task.model(),
                    task.instructions(),
                    memory.messages(),
                    definitions(),
                    task.limits().maxOutputTokens()),
                deltas.text(events.nextItemId("msg")));
      } catch (ModelException e) {
        return Optional.of(
            new Ended(
                memory,
                AgentOutcome.failed(ModelFailures.runErrorCode(e), redact.apply(e.getMessage()))));
      } catch (RuntimeException e) {
        LOG.warn("Model call failed unexpectedly", e);
        return Optional.of(
            failed(
                memory,
                redact.apply(
                    "model call failed: " + e.getClass().getSimpleName() + ": " + e.getMessage())));
      }
      Usage usage = memory.usage().plus(answer.usage());
      if (!answer.text().isBlank()) {
        if (answer.hasToolCalls()) {
          events.reasoning(answer.text());
        } else {
          events.message(answer.text());
        }
      }
      events.usage(usage);
      memory = memory.afterReply(ChatMessage.fromReply(answer), usage, events.lastSeq());
      recorder.record(memory);
      if (overAllowance.test(usage)) {
        return Optional.of(
            new Ended(
                memory,
                AgentOutcome.failed(RunErrorCode.USAGE_EXHAUSTED, UsageLimits.EXHAUSTED_MESSAGE)));
      }
    }
  }

  /** How a loop ended: its last memory and the run's outcome. */
  record Ended(RunMemory memory, AgentOutcome outcome) {}

  private Ended failed(RunMemory memory, String message) {
    return new Ended(memory, AgentOutcome.failed(RunErrorCode.EXECUTION_FAILED, message));
  }

  private Ended finish(RunMemory memory, String response, long durationMs) {
    List<com.fasterxml.jackson.databind.node.ObjectNode> diffs =
        memory.snapshot() == null ? List.of() : events.fileChanges(sandbox.diff(memory.snapshot()));
    RunnerEvent result =
        events.result(response, memory.actions(), memory.usage(), diffs, durationMs);
    return new Ended(memory, AgentOutcome.completed(result));
  }

  /** The built-in tools, then the MCP servers' tools. */
  private List<ToolDefinition> definitions() {
    List<ToolDefinition> definitions = new ArrayList<>(tools.definitions());
    mcp.tools().forEach(tool -> definitions.add(tool.definition()));
    definitions.addAll(approvals.definitions());
    return definitions;
  }

  /**
   * Runs one call in the sandbox (or learns what it did before a failover), or on its MCP server,
   * and reports it; a call the agent's policy holds waits for a person first. Null when the loop
   * stopped while it waited.
   */
  private RunMemory answer(RunMemory memory, ToolCall call, boolean resumed)
      throws InterruptedException {
    String id = memory.nextCallId();
    if (approvals.isQuestion(call)) {
      CallApprovals.Verdict verdict = approvals.ask(id, call);
      if (verdict instanceof CallApprovals.Verdict.Answered(String text, boolean given)) {
        SandboxToolResult result =
            new SandboxToolResult(QUESTION_TYPE, given, null, null, text, null, text);
        return reported(memory, id, call, () -> result);
      }
      return null;
    }
    Optional<McpTool> mcpTool = mcp.find(call.name());
    Optional<SandboxTools.SandboxTool> tool = tools.find(call.name());
    boolean mayHaveBeenSent = resumed;
    if (mcpTool.isPresent() || tool.isPresent()) {
      CallApprovals.Verdict verdict = approvals.approve(id, call);
      if (verdict instanceof CallApprovals.Verdict.Proceed(boolean unsent) && unsent) {
        mayHaveBeenSent = false; // it waited here for its approval: nobody sent it before
      }
      if (verdict instanceof CallApprovals.Verdict.Stopped) {
        return null;
      }
      if (verdict instanceof CallApprovals.Verdict.Denied(String reason)) {
        SandboxToolResult refused =
            mcpTool.isPresent()
                ? McpTool.failure(reason)
                : SandboxToolResult.failure(tool.get().type(), command(call), null, reason);
        return reported(memory, id, call, () -> refused);
      }
    }
    if (mcpTool.isPresent()) {
      return reported(
          memory,
          id,
          call,
          () -> {
            try {
              return mcpTool.get().call(call.arguments());
            } catch (RuntimeException e) {
              return McpTool.failure("the arguments are not a JSON object: " + e.getMessage());
            }
          });
    }
    if (tool.isEmpty()) {
      events.error("the model called an unknown tool '" + call.name() + "'");
      return memory.afterTool(
          ChatMessage.toolResult(
              call.id(),
              "error: unknown tool '"
                  + call.name()
                  + "'; the tools are "
                  + String.join(", ", names())),
          null,
          events.lastSeq());
    }
    TextDeltas output = deltas.output(events.nextItemId("tool"));
    boolean resumedCall = mayHaveBeenSent;
    return reported(memory, id, call, () -> sandbox.run(id, tool.get(), call, resumedCall, output));
  }

  private RunMemory reported(
      RunMemory memory, String id, ToolCall call, Supplier<SandboxToolResult> run) {
    long start = System.nanoTime();
    SandboxToolResult result =
        tracing.executeTool(call.name(), call.id(), run, SandboxToolResult::succeeded);
    long durationMs = (System.nanoTime() - start) / 1_000_000;
    events.toolCall(id, result, call.name(), durationMs);
    return memory.afterTool(
        ChatMessage.toolResult(call.id(), result.forModel()),
        Actions.describe(call.name(), result),
        events.lastSeq());
  }

  /** The type of an {@code ask_user} call's result: a question a person answered. */
  static final String QUESTION_TYPE = "question";

  private static String command(ToolCall call) {
    try {
      Object command = call.arguments().get("command");
      return command instanceof String text ? text : null;
    } catch (IllegalArgumentException malformed) {
      return null;
    }
  }

  private List<String> names() {
    List<String> names = new ArrayList<>(tools.names());
    mcp.tools().forEach(tool -> names.add(tool.name()));
    approvals.definitions().forEach(tool -> names.add(tool.name()));
    return names;
  }
}
