package dev.threadline.operator.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tool the direct path's model call carries: by calling it the model hands the message to the
 * computer instead of answering in text, so one call both decides and answers.
 */
public final class ComputerHandoff {
  public static final String TOOL_NAME = "hand_off_to_computer";

  /** The field of the routing {@code started} log entry that holds the handed-over task. */
  static final String TASK = "task";

  static final ToolDefinition TOOL =
      new ToolDefinition(
          TOOL_NAME,
          "Hand the message to a computer with a shell and the thread's workspace. Call this when"
              + " the user asks to run commands, create, edit or delete files, change or test code,"
              + " install packages, or work on attached files. Answer in text instead for"
              + " greetings, questions, explanations and anything text alone can answer.",
          Map.of(
              "type",
              "object",
              "properties",
              Map.of(
                  "task",
                  Map.of("type", "string", "description", "What the computer should do"),
                  "reason",
                  Map.of(
                      "type", "string", "description", "Why this needs the computer, in a phrase")),
              "required",
              List.of("task")));

  private ComputerHandoff() {}

  /** The task the routing call handed to the computer, as the run's {@code started} entry says. */
  public static Optional<String> task(Optional<JsonNode> started) {
    return started.map(data -> data.path(TASK).asText("")).filter(task -> !task.isBlank());
  }

  /**
   * What the model said when it handed the message over.
   *
   * @param reason why the run goes to the computer (the Run's routing reason)
   * @param task what the computer should do, in the model's words; empty when it gave none
   */
  public record Handoff(String reason, Optional<String> task) {}

  /** The hand-off, when the model called the tool; empty for a text answer. */
  static Optional<Handoff> of(ModelReply reply) {
    return reply.toolCalls().stream()
        .filter(call -> TOOL_NAME.equals(call.name()))
        .findFirst()
        .map(ComputerHandoff::describe);
  }

  private static Handoff describe(ToolCall call) {
    Map<String, Object> arguments;
    try {
      arguments = call.arguments();
    } catch (IllegalArgumentException malformed) {
      arguments = Map.of();
    }
    String why = text(arguments.get("reason"));
    String task = text(arguments.get("task"));
    StringBuilder reason = new StringBuilder("the model handed the message to the computer");
    if (!why.isEmpty()) {
      reason.append(": ").append(why);
    }
    if (!task.isEmpty()) {
      reason.append(" (task: ").append(task).append(')');
    }
    return new Handoff(reason.toString(), task.isEmpty() ? Optional.empty() : Optional.of(task));
  }

  private static String text(Object value) {
    return value instanceof String s ? s.strip() : "";
  }
}
