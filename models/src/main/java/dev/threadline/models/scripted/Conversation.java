package dev.threadline.models.scripted;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.Role;
import java.util.List;
import java.util.Optional;

/** Read-only questions about a conversation's history that the scripted model asks. */
final class Conversation {

  private Conversation() {}

  /** Index of the latest user message, or -1 when there is none. */
  static int latestUserIndex(List<ChatMessage> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.USER) {
        return i;
      }
    }
    return -1;
  }

  /** The user message before the one at {@code index}, if any. */
  static Optional<ChatMessage> userMessageBefore(List<ChatMessage> messages, int index) {
    for (int i = index - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.USER) {
        return Optional.of(messages.get(i));
      }
    }
    return Optional.empty();
  }

  /**
   * {@code text} cut to {@code max} characters, with an ellipsis when cut; whitespace collapsed.
   */
  static String abbreviate(CharSequence text, int max) {
    String oneLine = Text.collapseSpaces(text, max + 1); // reads no further than it shows
    return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
  }
}
