package dev.threadline.benchmarks;

import dev.threadline.crds.common.Timestamps;
import dev.threadline.crds.run.Run;
import dev.threadline.history.History;
import dev.threadline.history.RunKey;
import dev.threadline.history.StoredEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the time of one computer run's POST → {@code response.started} goes, from the clocks that
 * saw it (one machine, so one clock): the client's send, the operator's routing {@code started}
 * event (its reconcile's start), the worker's {@code started} and {@code planning} events, and the
 * client's arrival of {@code response.started}.
 */
final class ClaimedStartSegments {
  static final List<String> NAMES =
      List.of(
          "POST sent → operator's reconcile of the Run begins",
          "reconcile begins → worker's first event (route, claim, worker's claim, task, bind)",
          "worker's first event → `planning` event",
          "`planning` recorded → client receives `response.started`");

  private final List<List<Double>> samples = new ArrayList<>();

  ClaimedStartSegments() {
    NAMES.forEach(name -> samples.add(new ArrayList<>()));
  }

  /** Adds one run's segments; a run whose events do not show them all is skipped. */
  void add(Instant sent, double responseStartedMillis, Run run, History history) {
    List<StoredEvent> events =
        history
            .events()
            .all(
                new RunKey(
                    run.getMetadata().getNamespace(),
                    run.getSpec().getThread(),
                    run.getMetadata().getName()));
    List<Instant> started =
        events.stream()
            .filter(event -> "started".equals(event.type()))
            .map(event -> Timestamps.parse(event.time()))
            .flatMap(Optional::stream)
            .toList();
    Optional<Instant> planning =
        events.stream()
            .filter(event -> "planning".equals(event.type()))
            .findFirst()
            .flatMap(event -> Timestamps.parse(event.time()));
    if (started.size() < 2 || planning.isEmpty()) {
      return;
    }
    Instant received = sent.plusNanos((long) (responseStartedMillis * 1e6));
    List<Instant> marks = List.of(sent, started.get(0), started.get(1), planning.get(), received);
    for (int i = 0; i < NAMES.size(); i++) {
      samples.get(i).add(Duration.between(marks.get(i), marks.get(i + 1)).toNanos() / 1e6);
    }
  }

  /** The table's rows (median, p99 … per segment); none when no run showed them. */
  List<String> rows() {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < NAMES.size(); i++) {
      if (!samples.get(i).isEmpty()) {
        rows.add(Percentiles.row(NAMES.get(i), Percentiles.of(samples.get(i))));
      }
    }
    return rows;
  }
}
