package dev.threadline.core.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HistoryRoomTest {
  private final HistoryRoom room = new HistoryRoom(10);

  @Test
  void aMessageThatFitsIsLetThroughAndOneThatDoesNotIsRefusedWithTheNumbers() {
    assertThat(room.refusal(7, "abc", "x")).isEmpty();
    assertThat(room.refusal(10, null, "x")).isEmpty();
    assertThat(room.refusal(8, "abc", "delete threads"))
        .hasValue(
            "Limit exceeded: a user may keep at most 10 bytes of conversation history"
                + " (THREADLINE_LIMITS_HISTORYBYTES); this user keeps 8: delete threads");
  }

  @Test
  void countsUtf8Bytes() {
    assertThat(room.refusal(5, "ééé", "x")).as("six bytes").isPresent();
    assertThat(room.refusal(4, "ééé", "x")).isEmpty();
  }

  @Test
  void aQuotaBelowOneByteIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> new HistoryRoom(0)).hasMessageContaining(HistoryRoom.SETTING);
  }
}
