package dev.threadline.operator.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.approvals.ApprovalGate;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.RunAnswer;
import dev.threadline.crds.run.RunWait;
import dev.threadline.history.StoredAnswer;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import dev.threadline.operator.tracing.AgentTracing;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The human side of one run's tool calls: which calls wait for an approval (the agent's {@link
 * ApprovalGate}), the {@code ask_user} tool when the policy offers it, and the wait itself: an
 * {@code approval_requested} event, then the person's answer ({@link InputWaits}). A run whose
 * agent has no policy never waits and is offered no extra tool, so its events stay as they were.
 */
final class CallApprovals {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The most characters of a call's arguments an {@code approval_requested} event shows. */
  static final int MAX_ARGUMENTS = 65_536;

  static final int MAX_QUESTION = 4096;

  static final ToolDefinition ASK_USER =
      new ToolDefinition(
          ApprovalGate.ASK_USER,
          "Ask the person who gave you the task a question and wait for the answer. Use it only"
              + " when you cannot go on without their decision or information.",
          Map.of(
              "type",
              "object",
              "properties",
              Map.of("question", Map.of("type", "string", "description", "The question to ask")),
              "required",
              List.of("question")));

  /** What a call gets from a person before it runs. */
  sealed interface Verdict {
    /**
     * It runs; {@code unsent} when it waited for its approval on this worker, so no worker before
     * this one can have sent it to the sandbox.
     */
    record Proceed(boolean unsent) implements Verdict {}

    /** It does not run: the model reads {@code reason}. */
    record Denied(String reason) implements Verdict {}

    /** A question's answer, the tool's result; {@code given} false when nobody answered. */
    record Answered(String text, boolean given) implements Verdict {}

    /** The loop stopped while it waited. */
    record Stopped() implements Verdict {}
  }

  /** For a run whose agent has no policy: no call waits, no tool is added. */
  static final CallApprovals NONE =
      new CallApprovals(Optional.empty(), null, null, null, "run-none-0");

  private final Optional<ApprovalGate> gate;
  private final InputWaits waits;
  private final WorkerEvents events;
  private final AgentTracing tracing;
  private final String callPrefix;

  /**
   * @param runName the Run's name: a call's id is unique over its thread ({@code call_<run>_<n>}),
   *     so that an answer names one call of one run
   */
  CallApprovals(
      Optional<ApprovalGate> gate,
      InputWaits waits,
      WorkerEvents events,
      AgentTracing tracing,
      String runName) {
    String runId = ResourceIds.toId(runName);
    this.callPrefix = "call_" + runId.substring(runId.indexOf('_') + 1) + "_";
    this.gate = gate;
    this.waits = waits;
    this.events = events;
    this.tracing = tracing;
  }

  /** The tools the policy adds to the built-in ones. */
  List<ToolDefinition> definitions() {
    return offersQuestions() ? List.of(ASK_USER) : List.of();
  }

  boolean isQuestion(ToolCall call) {
    return offersQuestions() && ApprovalGate.ASK_USER.equals(call.name());
  }

  private boolean offersQuestions() {
    return gate.map(ApprovalGate::offersQuestions).orElse(false);
  }

  /** The id a person answers for the run's call {@code tool_<n>} ({@link RunMemory#nextCallId}). */
  String callId(String toolId) {
    return callPrefix + toolId.substring(toolId.indexOf('_') + 1);
  }

  /** Asks the question of an {@code ask_user} call ({@link #isQuestion}) and waits. */
  Verdict ask(String toolId, ToolCall call) throws InterruptedException {
    String callId = callId(toolId);
    String question = bounded(text(call, "question").orElse(""), MAX_QUESTION);
    Optional<StoredAnswer> answer =
        waitFor(
                callId,
                RunWait.QUESTION,
                call.name(),
                () ->
                    events.approvalRequested(
                        callId, RunWait.QUESTION, call.name(), arguments(call), null, question))
            .map(InputWaits.Answered::answer);
    if (answer.isEmpty()) {
      return new Verdict.Stopped();
    }
    return answer.get().answer() != null
        ? new Verdict.Answered(answer.get().answer(), true)
        : new Verdict.Answered("The person did not answer: " + describe(answer.get()), false);
  }

  /** Whether the call may run: at once, or after a person approved it. */
  Verdict approve(String toolId, ToolCall call) throws InterruptedException {
    String callId = callId(toolId);
    Optional<String> reason =
        gate.flatMap(g -> g.reasonToAsk(call.name(), text(call, "command").orElse(null)));
    if (reason.isEmpty()) {
      return new Verdict.Proceed(false);
    }
    Optional<InputWaits.Answered> waited =
        waitFor(
            callId,
            RunWait.APPROVAL,
            call.name(),
            () ->
                events.approvalRequested(
                    callId, RunWait.APPROVAL, call.name(), arguments(call), reason.get(), null));
    if (waited.isEmpty()) {
      return new Verdict.Stopped();
    }
    StoredAnswer answer = waited.get().answer();
    return RunAnswer.APPROVE.equals(answer.decision())
        ? new Verdict.Proceed(!waited.get().earlier())
        : new Verdict.Denied("the person denied this call: " + describe(answer));
  }

  private Optional<InputWaits.Answered> waitFor(
      String callId, String kind, String tool, Runnable announce) throws InterruptedException {
    return tracing.waitForInput(
        tool, callId, kind, () -> waits.await(callId, kind, tool, announce));
  }

  private static String describe(StoredAnswer answer) {
    return answer.message() == null || answer.message().isBlank()
        ? "no reason given"
        : answer.message();
  }

  /** The arguments as the model wrote them: the object, or the text when it is not one. */
  private static JsonNode arguments(ToolCall call) {
    String json = call.argumentsJson();
    if (json.length() <= MAX_ARGUMENTS) {
      try {
        JsonNode parsed = JSON.readTree(json);
        if (parsed != null && parsed.isObject()) {
          return parsed;
        }
      } catch (java.io.IOException malformed) {
        // shown as the text the model wrote
      }
    }
    return TextNode.valueOf(bounded(json, MAX_ARGUMENTS));
  }

  private static Optional<String> text(ToolCall call, String field) {
    try {
      Object value = call.arguments().get(field);
      return value instanceof String s ? Optional.of(s) : Optional.empty();
    } catch (IllegalArgumentException malformed) {
      return Optional.empty();
    }
  }

  private static String bounded(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
