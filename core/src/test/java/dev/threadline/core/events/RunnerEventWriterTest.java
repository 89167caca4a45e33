package dev.threadline.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RunnerEventWriterTest {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final RunnerEventWriter writer =
      new RunnerEventWriter(
          new PrintStream(bytes, false, StandardCharsets.UTF_8),
          Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));

  @Test
  void numbersEventsFromOneAndWritesOneLineEach() {
    writer.emit(
        RunnerEventType.STARTED, RunnerEventData.started("run_1", "scripted", "/workspace"));
    writer.emit(RunnerEventType.PLANNING, RunnerEventData.planning("line one\nline two"));

    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(text.lines()).hasSize(2);
    List<RunnerEvent> events = RunnerEventReader.readAll(text);
    assertThat(events).extracting(RunnerEvent::seq).containsExactly(1L, 2L);
    assertThat(events.get(1).text("text")).isEqualTo("line one\nline two");
    assertThat(writer.lastSeq()).isEqualTo(2);
  }

  @Test
  void dropsEverythingAfterATerminalEvent() {
    writer.emit(
        RunnerEventType.FAILED,
        RunnerEventData.failed(RunnerFailureCode.EXECUTION_FAILED, "cancelled"));

    assertThat(writer.emit(RunnerEventType.RESULT, RunnerEventData.error("late"))).isEmpty();
    assertThat(writer.finished()).isTrue();
    assertThat(RunnerEventReader.readAll(bytes.toString(StandardCharsets.UTF_8)))
        .extracting(RunnerEvent::type)
        .containsExactly(RunnerEventType.FAILED);
  }

  @Test
  void concurrentWritersGetDistinctIncreasingSeqsAndWholeLines() throws Exception {
    try (var pool = Executors.newFixedThreadPool(4)) {
      IntStream.range(0, 200)
          .forEach(i ->
              pool.submit(() ->
                  writer.emit(RunnerEventType.REASONING, RunnerEventData.reasoning("step " + i))));
    }

    List<RunnerEvent> events = RunnerEventReader.readAll(bytes.toString(StandardCharsets.UTF_8));
    assertThat(events)
        .extracting(RunnerEvent::seq)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, 200).mapToObj(Long::valueOf).toList());
  }
}
