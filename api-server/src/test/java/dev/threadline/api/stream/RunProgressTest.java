package dev.threadline.api.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.api.errors.ApiException;
import dev.threadline.api.errors.ErrorKind;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunError;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunSpec;
import dev.threadline.crds.run.RunStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cursors depend only on the log: however a stream sees the run's versions, each event keeps its
 * id.
 */
class RunProgressTest {
  private static final List<String> COMPUTER_LOG =
      List.of("started", "planning", "setup", "tool_call", "usage", "message", "result");

  @Test
  void everyWayOfSeeingTheLogGivesTheSameEventsAtTheSameCursors() {
    List<String> whole =
        describe(new RunProgress("u").advance(computerRun(COMPUTER_LOG.size(), true, 0)));

    List<String> stepByStep = new ArrayList<>();
    RunProgress progress = new RunProgress("u");
    for (int entries = 0; entries <= COMPUTER_LOG.size(); entries++) {
      stepByStep.addAll(
          describe(progress.advance(computerRun(entries, entries == COMPUTER_LOG.size(), 0))));
      // a repeated version changes nothing
      stepByStep.addAll(
          describe(progress.advance(computerRun(entries, entries == COMPUTER_LOG.size(), 0))));
    }

    assertThat(stepByStep)
        .isEqualTo(whole)
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
  void aLogThatLostItsStartDoesNotInventTheStartAtALaterPosition() {
    List<String> frames =
        describe(new RunProgress("u").advance(computerRun(COMPUTER_LOG.size(), true, 3)));

    assertThat(frames)
        .containsExactly(
            "4:0 response.item.completed",
            "6:0 response.item.completed",
            "7:0 response.completed",
            "7:1 stream.completed");
  }

  @Test
  void terminalEventsOfAnEmptyLogComeAfterThreadCreatedsPosition() {
    Run cancelled = run(List.of(), 0);
    cancelled.getStatus().setPhase("cancelled");
    RunError error = new RunError();
    error.setCode("cancelled");
    error.setMessage("Cancelled");
    cancelled.getStatus().setError(error);

    assertThat(describe(new RunProgress("u").advance(cancelled)))
        .containsExactly("0:1 response.failed", "0:2 stream.completed");
  }

  @Test
  void aCursorIntoTheDroppedPartOfTheLogIsGone() {
    Run run = computerRun(COMPUTER_LOG.size(), true, 3);

    assertThatThrownBy(() -> RunResumption.requireRetained(run, new EventCursor("run_abc-1", 3, 0)))
        .isInstanceOfSatisfying(
            ApiException.class,
            gone -> {
              assertThat(gone.kind()).isEqualTo(ErrorKind.GONE);
              assertThat(gone.getMessage())
                  .contains("before run_abc-1:4:0 are no longer kept")
                  .contains("reconnect without Last-Event-ID to get the run's current state");
            });
    RunResumption.requireRetained(run, new EventCursor("run_abc-1", 4, 0));
    RunResumption.requireRetained(computerRun(2, false, 0), new EventCursor("run_abc-1", 0, 0));
  }

  private static List<String> describe(List<StreamFrame> frames) {
    return frames.stream()
        .map(frame ->
            frame.cursor().seq() + ":" + frame.cursor().index() + " " + frame.event().type())
        .toList();
  }

  /**
   * The first {@code entries} entries of a computer run's log, of which the first {@code dropped}
   * are gone.
   */
  private static Run computerRun(int entries, boolean finished, int dropped) {
    List<RunEvent> log = new ArrayList<>();
    for (int seq = dropped + 1; seq <= entries; seq++) {
      String type = COMPUTER_LOG.get(seq - 1);
      ObjectNode data = Serialization.jsonMapper().createObjectNode();
      if (type.equals("started")) {
        data.put("route", "computer");
      }
      data.put("text", type + " text");
      RunEvent event = new RunEvent();
      event.setSeq((long) seq);
      event.setType(type);
      event.setTime("2026-01-01T00:00:01Z");
      event.setData(data);
      log.add(event);
    }
    Run run = run(log, dropped);
    run.getStatus().setRoute(entries == 0 ? null : "computer");
    run.getStatus().setPhase(finished ? "completed" : "running");
    if (finished) {
      run.getStatus().setCompletedAt("2026-01-01T00:00:02Z");
    }
    return run;
  }

  private static Run run(List<RunEvent> log, long dropped) {
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
    status.setEvents(log);
    status.setDroppedEvents(dropped == 0 ? null : dropped);
    run.setStatus(status);
    return run;
  }
}
