package dev.threadline.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RunnerEventCodecTest {

  private static final Instant TIME = Instant.parse("2026-03-04T05:06:07.089Z");

  @Test
  void encodesOneLineWithSeqTimeTypeAndData() {
    RunnerEvent event =
        new RunnerEvent(
            3,
            TIME,
            RunnerEventType.TOOL_CALL,
            RunnerEventData.toolCall(
                "tool_1",
                "completed",
                RunnerEventData.tool("command_execution", "run_command", "ls", null, "a\nb\n", 0),
                12));

    String line = RunnerEventCodec.encode(event);

    assertThat(line)
        .doesNotContain("\n")
        .isEqualTo(
            "{\"seq\":3,\"time\":\"2026-03-04T05:06:07.089Z\","
                + "\"type\":\"tool_call\",\"data\":{\"id\":\"tool_1\",\"status\":\"completed\",\"tool\":{\"type\":"
                + "\"command_execution\",\"name\":\"run_command\",\"command\":\"ls\",\"output\":\"a\\nb\\n\","
                + "\"exit_code\":0},\"duration_ms\":12}}");
  }

  @Test
  void writesWholeSecondsWithThreeFractionDigits() {
    String line =
        RunnerEventCodec.encode(
            new RunnerEvent(
                1, Instant.parse("2026-03-04T05:06:07Z"), RunnerEventType.PLANNING, null));

    assertThat(line).contains("\"time\":\"2026-03-04T05:06:07.000Z\"");
  }

  @Test
  void everyTypeRoundTrips() {
    for (RunnerEventType type : RunnerEventType.values()) {
      RunnerEvent event =
          new RunnerEvent(7, TIME, type, RunnerEventData.error("ünïcode \u2028 \"quoted\""));

      assertThat(RunnerEventCodec.parse(RunnerEventCodec.encode(event))).contains(event);
    }
  }

  @Test
  void resultKeepsActionsUsageAndDiffs() {
    RunnerEvent event =
        new RunnerEvent(
            9,
            TIME,
            RunnerEventType.RESULT,
            RunnerEventData.result(
                "done",
                List.of("ran `ls` (exit 0)"),
                RunnerEventData.usage(10, 5, 2),
                List.of(
                    RunnerEventData.diffCreate("a.txt", "hello\n"),
                    RunnerEventData.diffModify("b.txt", 2, 1)),
                1500));

    RunnerEvent parsed = RunnerEventCodec.parse(RunnerEventCodec.encode(event)).orElseThrow();

    assertThat(parsed.data().path("diffs").get(1).path("type").asText()).isEqualTo("modify");
    assertThat(parsed.data().path("usage").path("cached_tokens").asLong()).isEqualTo(2);
    assertThat(parsed.number("duration_ms")).isEqualTo(1500);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "Picked up JAVA_TOOL_OPTIONS: -Xmx1g",
        "{not json",
        "[1,2]",
        "{\"seq\":1,\"time\":\"2026-03-04T05:06:07.089Z\",\"type\":\"teleported\",\"data\":{}}",
        "{\"seq\":0,\"time\":\"2026-03-04T05:06:07.089Z\",\"type\":\"started\",\"data\":{}}",
        "{\"seq\":\"1\",\"time\":\"2026-03-04T05:06:07.089Z\",\"type\":\"started\",\"data\":{}}",
        "{\"seq\":1,\"time\":\"yesterday\",\"type\":\"started\",\"data\":{}}",
        "{\"seq\":1,\"time\":\"2026-03-04T05:06:07.089Z\",\"type\":\"started\",\"data\":[1]}",
        "{\"seq\":1,\"time\":\"2026-03-04T05:06:07.089Z\",\"data\":{}}"
      })
  void skipsLinesThatAreNotProtocolLines(String line) {
    assertThat(RunnerEventCodec.parse(line)).isEmpty();
  }

  @Test
  void readsAMissingDataAsEmptyAndAcceptsAnOffsetTime() {
    RunnerEvent event =
        RunnerEventCodec.parse(
                "  {\"seq\":2,\"time\":\"2026-03-04T06:06:07.089+01:00\",\"type\":\"usage\"}\r")
            .orElseThrow();

    assertThat(event.time()).isEqualTo(TIME);
    assertThat(event.data().isEmpty()).isTrue();
  }
}
