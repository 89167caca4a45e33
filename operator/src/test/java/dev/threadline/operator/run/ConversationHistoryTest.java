package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.history.RunKey;
import dev.threadline.history.RunRecord;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationHistoryTest {
  @Test
  void earlierRunsInOrderThenTheCurrentMessage() {
    List<ChatMessage> history =
        ConversationHistory.of(
            List.of(
                record(3, "now?", null),
                record(2, "and then", null),
                record(1, "first", "answer one")),
            3,
            "now?");

    assertThat(history)
        .extracting(ChatMessage::role)
        .containsExactly(Role.USER, Role.ASSISTANT, Role.USER, Role.USER);
    assertThat(history)
        .extracting(ChatMessage::content)
        .containsExactly("first", "answer one", "and then", "now?");
  }

  @Test
  void laterRunsAreNotPartOfTheHistory() {
    List<ChatMessage> history =
        ConversationHistory.of(
            List.of(record(1, "first", "a"), record(2, "second", "b")), 1, "first");
    assertThat(history).extracting(ChatMessage::content).containsExactly("first");
  }

  @Test
  void messagesAndAnswersAreWholeWhateverTheirLength() {
    String question = "q".repeat(50_000);
    String answer = "a".repeat(50_000);
    List<ChatMessage> history =
        ConversationHistory.of(List.of(record(1, question, answer)), 2, "next");
    assertThat(history).extracting(ChatMessage::content).containsExactly(question, answer, "next");
  }

  private static RunRecord record(long sequence, String message, String response) {
    return new RunRecord(
        new RunKey("ns", "thread-t", "thread-t-" + sequence),
        sequence,
        message,
        "2026-12-01T10:00:00Z",
        response,
        null);
  }
}
