package dev.threadline.operator.run;

import dev.threadline.history.RunRecord;
import dev.threadline.models.ChatMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the model sees of a thread: every earlier run's whole message and answer (as the history
 * store keeps them, also of runs that left the Kubernetes API), oldest first, then the current
 * message. Runs without an answer (failed, cancelled) keep their question, so the model knows it
 * was asked.
 */
public final class ConversationHistory {
  private ConversationHistory() {}

  /**
   * @param records the thread's run records
   * @param sequence the current run's place in its thread: the records before it count
   * @param message the current run's whole message
   */
  public static List<ChatMessage> of(List<RunRecord> records, long sequence, String message) {
    List<ChatMessage> messages = new ArrayList<>();
    records.stream()
        .filter(record -> record.sequence() < sequence)
        .sorted(Comparator.comparingLong(RunRecord::sequence))
        .forEach(record -> {
          messages.add(ChatMessage.user(record.message()));
          String answer = record.response();
          if (answer != null && !answer.isBlank()) {
            messages.add(ChatMessage.assistant(answer));
          }
        });
    messages.add(ChatMessage.user(message));
    return messages;
  }
}
