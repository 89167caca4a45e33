package dev.threadline.api.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventCursorTest {
  @Test
  void roundTripsAndOrdersWithinARun() {
    EventCursor cursor = EventCursor.parse("run_abc-1:12:3", "Last-Event-ID");

    assertThat(cursor).isEqualTo(new EventCursor("run_abc-1", 12, 3));
    assertThat(cursor.toString()).isEqualTo("run_abc-1:12:3");
    assertThat(cursor.runName()).isEqualTo("run-abc-1");
    assertThat(new EventCursor("run_abc-1", 12, 4).isAfter(cursor)).isTrue();
    assertThat(new EventCursor("run_abc-1", 13, 0).isAfter(cursor)).isTrue();
    assertThat(new EventCursor("run_abc-1", 12, 3).isAfter(cursor)).isFalse();
    assertThat(new EventCursor("run_abc-1", 11, 9).isAfter(cursor)).isFalse();
  }

  @Test
  void theHeaderWinsOverTheQueryParameter() {
    assertThat(EventCursor.of("run_a-1:2:0", "run_a-1:1:0"))
        .contains(new EventCursor("run_a-1", 2, 0));
    assertThat(EventCursor.of(null, "run_a-1:1:0")).contains(new EventCursor("run_a-1", 1, 0));
    assertThat(EventCursor.of(" ", null)).isEqualTo(Optional.empty());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "7",
        "run_abc-1:12",
        "run_abc-1:-1:0",
        "thread_abc:1:0",
        "run_abc-1:1:0:0",
        "run_ABC-1:1:0",
        "run_abc-1:x:0"
      })
  void aMalformedCursorIsA400NamingWhereItCameFrom(String text) {
    assertThatThrownBy(() -> EventCursor.parse(text, "Last-Event-ID"))
        .isInstanceOfSatisfying(
            ApiException.class,
            failure -> {
              assertThat(failure.kind()).isEqualTo(ErrorKind.BAD_REQUEST);
              assertThat(failure.getMessage()).startsWith("Last-Event-ID is not a stream event id");
            });
  }
}
