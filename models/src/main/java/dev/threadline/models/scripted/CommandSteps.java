package dev.threadline.models.scripted;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.Role;
import dev.threadline.models.ToolCall;
import dev.threadline.models.ToolDefinition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scripted model's agent behaviour: run the latest task's backticked commands one tool call per
 * turn, then summarise. It keeps no state: the next step follows from how many tool results the
 * history already holds for the task, so a resumed or replayed conversation gets the same answer.
 */
final class CommandSteps {

  static final String RUN_COMMAND = "run_command";

  /** The tool through which a model asks a person (offered by an agent's approval policy). */
  static final String ASK_USER = "ask_user";

  /**
   * A backticked step that starts so ({@code `ask_user: Which branch?`}) is a question to a person
   * when {@value #ASK_USER} is offered, rather than a command.
   */
  static final String ASK_PREFIX = "ask_user:";

  private static final int TAIL_LINES = 5;
  private static final int TAIL_CHARS = 400;

  /** The next turn: either a tool call (with a line saying what runs) or a final text. */
  record Step(String text, List<ToolCall> toolCalls) {
    static Step finalAnswer(String text) {
      return new Step(text, List.of());
    }
  }

  private CommandSteps() {}

  static Step next(List<ChatMessage> messages, List<ToolDefinition> tools) {
    int task = Conversation.latestUserIndex(messages);
    if (task < 0) {
      return Step.finalAnswer("There is no task to work on: the conversation has no user message.");
    }
    List<String> commands = BacktickCommands.extract(messages.get(task).content());
    if (commands.isEmpty()) {
      return Step.finalAnswer(
          "There was nothing to run: the task has no command in backticks. Write the shell commands"
              + " to run in backticks, like `ls -la`, or configure a real model with "
              + "THREADLINE_MODEL_PROVIDER.");
    }
    if (tools.stream().noneMatch(tool -> tool.name().equals(RUN_COMMAND))) {
      return Step.finalAnswer(
          "I cannot run the task's commands: no "
              + RUN_COMMAND
              + " tool is offered. "
              + "The commands were: "
              + String.join(", ", commands.stream().map(c -> "`" + c + "`").toList())
              + ".");
    }
    List<ChatMessage> later = messages.subList(task + 1, messages.size());
    List<ChatMessage> results = later.stream().filter(m -> m.role() == Role.TOOL).toList();
    if (results.size() < commands.size()) {
      int index = results.size();
      String command = commands.get(index);
      if (command.startsWith(ASK_PREFIX) && offers(tools, ASK_USER)) {
        String question = command.substring(ASK_PREFIX.length()).strip();
        ToolCall ask = ToolCall.of(callId(task, index), ASK_USER, Map.of("question", question));
        return new Step(
            "Asking step " + (index + 1) + " of " + commands.size() + ": " + question,
            List.of(ask));
      }
      ToolCall call = ToolCall.of(callId(task, index), RUN_COMMAND, Map.of("command", command));
      String text =
          "Running command " + (index + 1) + " of " + commands.size() + ": `" + command + "`";
      return new Step(text, List.of(call));
    }
    return Step.finalAnswer(summary(commands, results, commandsById(later)));
  }

  private static boolean offers(List<ToolDefinition> tools, String name) {
    return tools.stream().anyMatch(tool -> tool.name().equals(name));
  }

  /** Unique within the conversation: the task's position plus the command's. */
  private static String callId(int task, int index) {
    return "call_scripted_" + task + "_" + (index + 1);
  }

  /** The command each earlier run_command call ran, so a summary quotes what really ran. */
  private static Map<String, String> commandsById(List<ChatMessage> later) {
    Map<String, String> byId = new HashMap<>();
    for (ChatMessage message : later) {
      for (ToolCall call : message.toolCalls()) {
        try {
          Object command = call.arguments().get("command");
          if (command != null) {
            byId.put(call.id(), command.toString());
          }
          Object question = call.arguments().get("question");
          if (call.name().equals(ASK_USER) && question != null) {
            byId.put(call.id(), ASK_PREFIX + " " + question);
          }
        } catch (IllegalArgumentException malformed) {
          // The summary falls back to the command's position in the task.
        }
      }
    }
    return byId;
  }

  private static String summary(
      List<String> commands, List<ChatMessage> results, Map<String, String> byId) {
    StringBuilder text = new StringBuilder();
    text.append(results.size() == 1 ? "Ran 1 command:" : "Ran " + results.size() + " commands:");
    int failed = 0;
    int unknown = 0;
    for (int i = 0; i < results.size(); i++) {
      ChatMessage result = results.get(i);
      String command =
          byId.getOrDefault(result.toolCallId(), i < commands.size() ? commands.get(i) : "?");
      if (command.startsWith(ASK_PREFIX)) {
        text.append('\n')
            .append(i + 1)
            .append(". asked: ")
            .append(command.substring(ASK_PREFIX.length()).strip())
            .append(" → ")
            .append(result.content().strip());
        continue;
      }
      CommandResult outcome = CommandResult.parse(result.content());
      if (outcome.exitCode() == null) {
        unknown++;
      } else if (!outcome.succeeded()) {
        failed++;
      }
      text.append('\n')
          .append(i + 1)
          .append(". `")
          .append(command)
          .append("` → ")
          .append(
              outcome.exitCode() == null ? "exit code unknown" : "exit code " + outcome.exitCode());
      String tail = outcome.tail(TAIL_LINES, TAIL_CHARS);
      text.append(tail.isEmpty() ? "\n   (no output)" : "\n   " + tail.replace("\n", "\n   "));
    }
    text.append('\n').append(verdict(results.size(), failed, unknown));
    return text.toString();
  }

  private static String verdict(int total, int failed, int unknown) {
    if (failed > 0) {
      return failed + " of " + total + (total == 1 ? " command" : " commands") + " failed.";
    }
    if (unknown > 0) {
      return "No command reported a failure (" + unknown + " did not report an exit code).";
    }
    return total == 1 ? "The command succeeded." : "All " + total + " commands succeeded.";
  }
}
