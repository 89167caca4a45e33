package dev.threadline.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class RunnerEventReaderTest {

  @Test
  void skipsForeignLinesBetweenEventsAndCountsThem() throws IOException {
    String log =
        """
        Picked up JAVA_TOOL_OPTIONS: -Xss1m
        {"seq":1,"time":"2026-01-01T00:00:00.000Z","type":"started","data":{"run_id":"run_1"}}

        {"seq":2,"time":"2026-01-01T00:00:01.000Z","type":"hologram","data":{}}
        {"seq":3,"time":"2026-01-01T00:00:02.000Z","type":"result","data":{"response":"ok"}}
        """;

    try (RunnerEventReader reader = new RunnerEventReader(new StringReader(log))) {
      assertThat(reader.next())
          .hasValueSatisfying(e -> assertThat(e.text("run_id")).isEqualTo("run_1"));
      assertThat(reader.next())
          .hasValueSatisfying(e -> assertThat(e.type()).isEqualTo(RunnerEventType.RESULT));
      assertThat(reader.next()).isEmpty();
      assertThat(reader.skippedLines()).isEqualTo(2);
    }
  }

  @Test
  void typesAreKnownByTheirWireNames() {
    assertThat(RunnerEventType.fromWireName("file_change")).contains(RunnerEventType.FILE_CHANGE);
    assertThat(RunnerEventType.fromWireName("FILE_CHANGE")).isEmpty();
    assertThat(RunnerEventType.fromWireName(null)).isEmpty();
    assertThat(RunnerEventType.RESULT.terminal()).isTrue();
    assertThat(RunnerEventType.USAGE.terminal()).isFalse();
  }
}
