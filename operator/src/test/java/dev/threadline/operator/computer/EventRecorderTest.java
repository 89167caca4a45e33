package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.operator.run.RunEventLog;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventRecorderTest {

  @Test
  void eventsAlreadyRecordedAreSkippedWhenTheLogIsReadAgain() {
    RunStatus status = new RunStatus();
    RunEventLog.append(status, "started", Instant.now(), Map.of("route", "computer"));
    List<RunnerEvent> firstRead =
        List.of(event(1, RunnerEventType.STARTED), event(2, RunnerEventType.PLANNING));
    assertThat(EventRecorder.record(status, firstRead)).isEqualTo(2);

    List<RunnerEvent> readAgain =
        List.of(
            event(1, RunnerEventType.STARTED),
            event(2, RunnerEventType.PLANNING),
            event(3, RunnerEventType.MESSAGE));
    assertThat(EventRecorder.record(status, readAgain)).isEqualTo(1);

    assertThat(status.getEvents())
        .extracting(RunEvent::getType)
        .containsExactly("started", "started", "planning", "message");
    assertThat(status.getEvents()).extracting(RunEvent::getSeq).containsExactly(1L, 2L, 3L, 4L);
    assertThat(status.getRunnerSeq()).isEqualTo(3L);
  }

  @Test
  void longOutputIsCutAndResultDiffsStayOutOfTheLog() {
    RunnerEvent tool =
        new RunnerEvent(
            1,
            Instant.now(),
            RunnerEventType.TOOL_CALL,
            RunnerEventData.toolCall(
                "tool_1",
                "completed",
                RunnerEventData.tool(
                    "command_execution", "run_command", "yes", null, "y\n".repeat(5000), 0),
                3));
    Map<String, Object> bounded = EventRecorder.bounded(tool);
    @SuppressWarnings("unchecked")
    String output = (String) ((Map<String, Object>) bounded.get("tool")).get("output");
    assertThat(output)
        .startsWith("y\ny\n")
        .hasSizeLessThan(EventRecorder.MAX_OUTPUT + 100)
        .contains("more characters");

    RunnerEvent result =
        new RunnerEvent(
            2,
            Instant.now(),
            RunnerEventType.RESULT,
            RunnerEventData.result(
                "ok",
                List.of(),
                RunnerEventData.usage(1, 1, 0),
                List.of(RunnerEventData.diffCreate("a.txt", "x")),
                1));
    assertThat(EventRecorder.bounded(result)).containsKey("response").doesNotContainKey("diffs");
  }

  private static RunnerEvent event(long seq, RunnerEventType type) {
    return new RunnerEvent(seq, Instant.now(), type, RunnerEventData.planning("step " + seq));
  }
}
