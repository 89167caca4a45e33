package dev.threadline.operator.worker;

import dev.threadline.crds.environment.EnvironmentDocument;
import dev.threadline.crds.environment.EnvironmentSpec;
import dev.threadline.crds.run.Attachment;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.scripted.BacktickCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The system prompt, the opening messages and the plan of a run: the agent's instructions and the
 * environment's documentation, the thread's history then the task.
 */
final class AgentPrompt {
  private AgentPrompt() {}

  static String instructions(String agentInstructions, EnvironmentSpec environment) {
    StringBuilder text = new StringBuilder();
    text.append("You are an agent working in a container. Your workspace is ")
        .append(RunWork.WORKSPACE)
        .append(
            ": commands run there, and file paths are relative to it. It persists between the"
                + " messages of this conversation. Use the tools to do the task, check your work,"
                + " then answer with a short summary of what you did.");
    if (agentInstructions != null && !agentInstructions.isBlank()) {
      text.append("\n\n").append(agentInstructions.strip());
    }
    List<EnvironmentDocument> documents =
        environment == null
            ? List.of()
            : Objects.requireNonNullElse(environment.getDocumentation(), List.of());
    for (EnvironmentDocument document : documents) {
      String content =
          document.getContent() != null && !document.getContent().isBlank()
              ? document.getContent()
              : document.getUrl() != null ? "Read it at " + document.getUrl() : null;
      if (content != null) {
        String title = document.getTitle();
        text.append("\n\n## Documentation: ")
            .append(title == null || title.isBlank() ? "(untitled)" : title.strip())
            .append('\n')
            .append(content.strip());
      }
    }
    return text.toString();
  }

  /**
   * The thread's messages (as {@code ConversationHistory} gives them, ending with this run's), with
   * the task the router's model handed over and a line naming the attached files added to the last
   * one.
   */
  static List<ChatMessage> opening(
      List<ChatMessage> history, List<String> attachments, Optional<String> handoffTask) {
    List<ChatMessage> messages = new ArrayList<>(history);
    if (messages.isEmpty() || (attachments.isEmpty() && handoffTask.isEmpty())) {
      return messages;
    }
    StringBuilder task = new StringBuilder(messages.remove(messages.size() - 1).content());
    handoffTask.ifPresent(handed -> task.append("\n\nYour task: ").append(handed));
    if (!attachments.isEmpty()) {
      task.append("\n\nAttached files, in the workspace folder attachments/: ")
          .append(String.join(", ", attachments))
          .append('.');
    }
    messages.add(ChatMessage.user(task.toString()));
    return messages;
  }

  static String describe(Attachment attachment) {
    return attachment.getMediaType() == null
        ? attachment.getName()
        : attachment.getName() + " (" + attachment.getMediaType() + ")";
  }

  /**
   * The one-paragraph plan shown before the agent starts, written from the task rather than by the
   * model, so it costs no tokens and is there even when the model later fails: the commands the
   * task names in backticks, or else the tools the agent has to work with.
   */
  static String plan(String task, List<String> toolNames) {
    List<String> commands = BacktickCommands.extract(task);
    if (commands.isEmpty()) {
      return "I will work on the task in the workspace with "
          + String.join(", ", toolNames)
          + ", then summarise what I did.";
    }
    return "I will run "
        + (commands.size() == 1 ? "1 command" : commands.size() + " commands")
        + " in the workspace"
        + (commands.size() == 1 ? ": " : ", in order: ")
        + String.join(", then ", commands.stream().map(c -> "`" + c + "`").toList())
        + ", and report what "
        + (commands.size() == 1 ? "it" : "they")
        + " printed.";
  }
}
