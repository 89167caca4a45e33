package dev.threadline.runner.run;

import dev.threadline.models.scripted.BacktickCommands;
import java.util.List;

/**
 * The one-paragraph plan shown before the agent starts. It is written from the task itself rather
 * than by the model, so it costs no tokens and is there even when the model later fails: the
 * commands the task names in backticks (what the scripted model will run), or else the tools the
 * agent has to work with.
 */
final class Planner {

  private Planner() {}

  static String plan(String task, List<String> toolNames, int attachments) {
    List<String> commands = BacktickCommands.extract(task);
    StringBuilder plan = new StringBuilder();
    if (!commands.isEmpty()) {
      plan.append("I will run ")
          .append(commands.size() == 1 ? "1 command" : commands.size() + " commands")
          .append(" in the workspace");
      plan.append(commands.size() == 1 ? ": " : ", in order: ");
      plan.append(String.join(", then ", commands.stream().map(c -> "`" + c + "`").toList()));
      plan.append(", and report what ")
          .append(commands.size() == 1 ? "it" : "they")
          .append(" printed.");
    } else {
      plan.append("I will work on the task in the workspace with ")
          .append(String.join(", ", toolNames))
          .append(", then summarise what I did.");
    }
    if (attachments > 0) {
      plan.append(" The ")
          .append(attachments == 1 ? "attached file is" : attachments + " attached files are")
          .append(" in attachments/.");
    }
    return plan.toString();
  }
}
