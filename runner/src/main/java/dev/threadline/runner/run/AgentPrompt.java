package dev.threadline.runner.run;

import dev.threadline.models.ChatMessage;
import dev.threadline.runner.run.RunInput.Attachment;
import dev.threadline.runner.run.RunInput.Documentation;
import dev.threadline.runner.run.RunInput.HistoryMessage;
import java.util.ArrayList;
import java.util.List;

/** The system prompt and the opening messages of a run, built from run.json. */
final class AgentPrompt {

  private AgentPrompt() {}

  static String instructions(RunInput input, String workspace) {
    StringBuilder text = new StringBuilder();
    text.append("You are an agent working in a container. Your workspace is ")
        .append(workspace)
        .append(
            ": commands run there, and file paths are relative to it. It persists between the"
                + " messages of this conversation. Use the tools to do the task, check your work,"
                + " then answer with a short summary of what you did.");
    if (!input.instructions().isBlank()) {
      text.append("\n\n").append(input.instructions().strip());
    }
    for (Documentation doc : input.documentation()) {
      text.append("\n\n## Documentation: ")
          .append(doc.title().isBlank() ? "(untitled)" : doc.title().strip())
          .append('\n')
          .append(doc.content().strip());
    }
    return text.toString();
  }

  /** The thread's history, then the task (with a line naming the attached files). */
  static List<ChatMessage> messages(RunInput input) {
    List<ChatMessage> messages = new ArrayList<>();
    for (HistoryMessage past : input.history()) {
      messages.add(
          past.role().equals("user")
              ? ChatMessage.user(past.content())
              : ChatMessage.assistant(past.content()));
    }
    String task = input.message();
    if (!input.attachments().isEmpty()) {
      task +=
          "\n\nAttached files, in the workspace folder attachments/: "
              + String.join(", ", input.attachments().stream().map(AgentPrompt::describe).toList())
              + ".";
    }
    messages.add(ChatMessage.user(task));
    return messages;
  }

  private static String describe(Attachment attachment) {
    return attachment.mediaType() == null
        ? attachment.name()
        : attachment.name() + " (" + attachment.mediaType() + ")";
  }
}
