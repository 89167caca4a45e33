package dev.threadline.operator.run;

import static dev.threadline.operator.support.Runs.run;
import static org.assertj.core.api.Assertions.assertThat;

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
                run(3, "now?", null, null, 0, 0, 0),
                run(2, "and then", "failed", null, 0, 0, 0),
                run(1, "first", "completed", "answer one", 0, 0, 0)),
            run(3, "now?", null, null, 0, 0, 0));

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
            List.of(
                run(1, "first", "completed", "a", 0, 0, 0),
                run(2, "second", "completed", "b", 0, 0, 0)),
            run(1, "first", "completed", "a", 0, 0, 0));
    assertThat(history).extracting(ChatMessage::content).containsExactly("first");
  }
}
