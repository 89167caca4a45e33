package dev.threadline.operator.computer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.events.RunnerEvent;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.core.events.RunnerEventType;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunPhase;
import dev.threadline.crds.run.RunStatus;
import dev.threadline.history.History;
import dev.threadline.history.StoredEvent;
import dev.threadline.operator.run.RunEventLog;
import dev.threadline.operator.support.Runs;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventRecorderTest {
  private final History history = History.temporary();
  private final RunEventLog log = new RunEventLog(history);
  private final Run run = Runs.run(1, "work", RunPhase.RUNNING.value(), null, 0, 0, 0);

  @AfterEach
  void close() {
    history.close();
  }

  @Test
  void eventsAlreadyRecordedAreSkippedWhenTheLogIsReadAgain() {
    EventRecorder recorder = new EventRecorder(log, 4096);
    RunStatus status = run.getStatus();
    log.append(run, status, "started", Instant.now(), Map.of("route", "computer"));
    List<RunnerEvent> firstRead =
        List.of(event(1, RunnerEventType.STARTED), event(2, RunnerEventType.PLANNING));
    assertThat(recorder.record(run, status, firstRead)).isTrue();
    assertThat(status.getLastEventSeq()).isEqualTo(3L);

    List<RunnerEvent> readAgain =
        List.of(
            event(1, RunnerEventType.STARTED),
            event(2, RunnerEventType.PLANNING),
            event(3, RunnerEventType.MESSAGE));
    assertThat(recorder.record(run, status, readAgain)).isTrue();
    assertThat(recorder.record(run, status, firstRead)).isFalse();

    List<StoredEvent> stored = history.events().all(RunEventLog.key(run));
    assertThat(stored)
        .extracting(StoredEvent::type)
        .containsExactly("started", "started", "planning", "message");
    assertThat(stored)
        .extracting(StoredEvent::key)
        .containsExactly("started", "runner:1", "runner:2", "runner:3");
    assertThat(stored).extracting(StoredEvent::seq).containsExactly(1L, 2L, 3L, 4L);
    assertThat(status.getLastEventSeq()).isEqualTo(4L);
  }

  @Test
  void outputIsKeptUpToTheLimitAndCutWithANoteBeyondIt() {
    String output = "y\n".repeat(100_000); // 200,000 characters
    assertThat(outputAsStored(new EventRecorder(log, 1 << 20), 1, output)).isEqualTo(output);

    String cut = outputAsStored(new EventRecorder(log, 4096), 2, output);
    assertThat(cut)
        .startsWith("y\ny\n")
        .hasSizeLessThan(4096 + 100)
        .contains("(195904 more characters not kept in the run's log)");
  }

  @Test
  void resultDiffsStayOutOfTheLog() {
    RunnerEvent result =
        new RunnerEvent(
            1,
            Instant.now(),
            RunnerEventType.RESULT,
            RunnerEventData.result(
                "ok",
                List.of(),
                RunnerEventData.usage(1, 1, 0),
                List.of(RunnerEventData.diffCreate("a.txt", "x")),
                1));
    new EventRecorder(log, 4096).record(run, run.getStatus(), List.of(result));
    assertThat(history.events().all(RunEventLog.key(run)).getFirst().data())
        .contains("\"response\"")
        .doesNotContain("diffs");
  }

  private String outputAsStored(EventRecorder recorder, long seq, String output) {
    RunnerEvent tool =
        new RunnerEvent(
            seq,
            Instant.now(),
            RunnerEventType.TOOL_CALL,
            RunnerEventData.toolCall(
                "tool_" + seq,
                "completed",
                RunnerEventData.tool("command_execution", "run_command", "yes", null, output, 0),
                3));
    recorder.record(run, run.getStatus(), List.of(tool));
    String data =
        history.events().find(RunEventLog.key(run), EventRecorder.key(tool)).orElseThrow().data();
    try {
      return io.fabric8.kubernetes.client.utils.Serialization.jsonMapper()
          .readTree(data)
          .path("tool")
          .path("output")
          .asText();
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  private static RunnerEvent event(long seq, RunnerEventType type) {
    return new RunnerEvent(seq, Instant.now(), type, RunnerEventData.planning("step " + seq));
  }
}
