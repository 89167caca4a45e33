package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunEvent;
import dev.threadline.crds.run.RunStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Follows one run across its status changes: each snapshot yields the stream events of the log
 * entries not seen before (by {@code seq}), and, once the run is finished, whatever terminal
 * events its log did not produce. Snapshots may repeat or skip versions; only new seqs count.
 */
public final class RunProgress {
  private final RunEventMapper mapper;
  private long lastSeq;

  public RunProgress(String userId) {
    this(userId, false);
  }

  /** @param generalForm whether the stream answers a message posted to an existing thread */
  public RunProgress(String userId, boolean generalForm) {
    this.mapper = new RunEventMapper(userId, generalForm);
  }

  /** The events this snapshot adds to the stream, in order. */
  public List<StreamEvent> advance(Run run) {
    List<StreamEvent> events = new ArrayList<>();
    List<RunEvent> log = Optional.ofNullable(run.getStatus()).map(RunStatus::getEvents).orElse(List.of());
    log.stream()
        .filter(event -> event.getSeq() != null && event.getSeq() > lastSeq)
        .sorted(Comparator.comparingLong(RunEvent::getSeq))
        .forEach(event -> {
          events.addAll(mapper.map(run, event));
          lastSeq = Objects.requireNonNull(event.getSeq());
        });
    events.addAll(mapper.finish(run));
    return events;
  }

  /** Whether the stream has received its terminal events. */
  public boolean finished() {
    return mapper.finished();
  }
}
