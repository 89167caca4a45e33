package dev.threadline.operator.run;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.models.ChatMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What the model sees of a thread: every earlier run's message and answer, oldest first, then the
 * current message. Runs without an answer (failed, cancelled) keep their question, so the model
 * knows it was asked.
 */
public final class ConversationHistory {
  private ConversationHistory() {}

  public static List<ChatMessage> of(List<Run> threadRuns, Run current) {
    long position = sequence(current);
    List<ChatMessage> messages = new ArrayList<>();
    threadRuns.stream()
        .filter(run -> sequence(run) < position)
        .sorted(Comparator.comparingLong(ConversationHistory::sequence))
        .forEach(run -> {
          messages.add(ChatMessage.user(run.getSpec().getMessage()));
          String answer = run.getStatus() == null ? null : run.getStatus().getResponse();
          if (RunPhase.of(run) == RunPhase.COMPLETED && answer != null && !answer.isBlank()) {
            messages.add(ChatMessage.assistant(answer));
          }
        });
    messages.add(ChatMessage.user(current.getSpec().getMessage()));
    return messages;
  }

  static long sequence(Run run) {
    return Objects.requireNonNullElse(run.getSpec().getSequence(), 0L);
  }
}
