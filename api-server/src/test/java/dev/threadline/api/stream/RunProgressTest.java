package dev.threadline.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cursors depend only on the log: however a stream reads the run's log (whole, in batches, twice),
 * each event keeps its id.
 */
class RunProgressTest {
  private static final List<String> COMPUTER_LOG =
      List.of("started", "planning", "setup", "tool_call", "usage", "message", "result");

  @Test
  void everyWayOfReadingTheLogGivesTheSameEventsAtTheSameCursors() {
    List<LogEvent> log = log(COMPUTER_LOG.size());
    List<String> whole = describe(step(new RunProgress("u"), computerRun(true), log));

    List<String> stepByStep = new ArrayList<>();
    RunProgress progress = new RunProgress("u");
    for (int entries = 0; entries <= COMPUTER_LOG.size(); entries++) {
      Run version = computerRun(entries == COMPUTER_LOG.size());
      stepByStep.addAll(describe(step(progress, version, log.subList(0, entries))));
      // a batch read again changes nothing
      stepByStep.addAll(describe(step(progress, version, log.subList(0, entries))));
    }

    List<String> inBatches = new ArrayList<>();
    RunProgress batched = new RunProgress("u");
    for (int from = 0; from < log.size(); from += 3) {
      inBatches.addAll(
          describe(
              batched.advance(
                  computerRun(true), log.subList(from, Math.min(log.size(), from + 3)))));
    }
    inBatches.addAll(describe(batched.finish(computerRun(true))));

    assertThat(stepByStep)
        .isEqualTo(whole)
        .isEqualTo(inBatches)
        .containsExactly(
            "1:0 computer.starting",
            "2:0 response.item.completed",
            "2:1 response.started",
            "3:0 response.item.completed",
            "4:0 response.item.completed",
            "6:0 response.item.completed",
            "7:0 response.completed",
            "7:1 stream.completed");
  }

  @Test
  void terminalEventsOfAnEmptyLogComeAfterThreadCreatedsPosition() {
    Run cancelled = run();
    cancelled.getStatus().setPhase("cancelled");
    RunError error = new RunError();
    error.setCode("cancelled");
    error.setMessage("Cancelled");
    cancelled.getStatus().setError(error);

    assertThat(describe(step(new RunProgress("u"), cancelled, List.of())))
        .containsExactly("0:1 response.failed", "0:2 stream.completed");
  }

  @Test
  void aVersionOfTheRunAnnouncesTheEntriesItsStreamReadsUpTo() {
    Run run = computerRun(false);
    assertThat(RunProgress.announced(run)).as("a Run that announces none").isZero();
    run.getStatus().setLastEventSeq(3L);
    assertThat(RunProgress.announced(run)).isEqualTo(3);
    run.setStatus(null);
    assertThat(RunProgress.announced(run)).isZero();

    RunProgress progress = new RunProgress("u");
    progress.advance(computerRun(false), log(3));
    assertThat(progress.lastSeq()).isEqualTo(3);
  }

  /** What a stream does on one change: the batch it read, then what a finished run still owes. */
  private static List<StreamFrame> step(RunProgress progress, Run run, List<LogEvent> batch) {
    List<StreamFrame> frames = new ArrayList<>(progress.advance(run, batch));
    frames.addAll(progress.finish(run));
    return frames;
  }

  private static List<String> describe(List<StreamFrame> frames) {
    return frames.stream()
        .map(frame ->
            frame.cursor().seq() + ":" + frame.cursor().index() + " " + frame.event().type())
        .toList();
  }

  /** The first {@code entries} entries of a computer run's log. */
  private static List<LogEvent> log(int entries) {
    List<LogEvent> log = new ArrayList<>();
    for (int seq = 1; seq <= entries; seq++) {
      String type = COMPUTER_LOG.get(seq - 1);
      ObjectNode data = Serialization.jsonMapper().createObjectNode();
      if (type.equals("started")) {
        data.put("route", "computer");
      }
      data.put("text", type + " text");
      log.add(new LogEvent(seq, type, "2026-01-01T00:00:01Z", data));
    }
    return log;
  }

  private static Run computerRun(boolean finished) {
    Run run = run();
    run.getStatus().setRoute("computer");
    run.getStatus().setPhase(finished ? "completed" : "running");
    if (finished) {
      run.getStatus().setCompletedAt("2026-01-01T00:00:02Z");
    }
    return run;
  }

  private static Run run() {
    Run run = new Run();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName("run-abc-1")
            .withNamespace("ns")
            .withCreationTimestamp("2026-01-01T00:00:00Z")
            .build());
    RunSpec spec = new RunSpec();
    spec.setThread("thread-abc");
    spec.setSequence(1L);
    spec.setMessage("hi");
    run.setSpec(spec);
    RunStatus status = new RunStatus();
    status.setStartedAt("2026-01-01T00:00:00Z");
    run.setStatus(status);
    return run;
  }
}
