package dev.threadline.operator.run;

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

  /** Why the run goes to the computer, when the model called the tool; empty for a text answer. */
  static Optional<String> reason(ModelReply reply) {
    return reply.toolCalls().stream()
        .filter(call -> TOOL_NAME.equals(call.name()))
        .findFirst()
        .map(ComputerHandoff::describe);
  }

  private static String describe(ToolCall call) {
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
    return reason.toString();
  }

  private static String text(Object value) {
    return value instanceof String s ? s.strip() : "";
  }
}
