package dev.threadline.api.stream;

import dev.threadline.crds.run.Run;
import dev.threadline.history.History;
import dev.threadline.history.RunKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run's event log, read from the history store (every event in full; the Run object carries only
 * the number of its last one). Read in batches, so that a long log never sits in memory whole while
 * it is streamed.
 */
public final class RunLog {
  /** Events read per query. */
  static final int BATCH = 500;

  private final History history;

  public RunLog(History history) {
    this.history = history;
  }

  /** Where the run's rows live in the store. */
  public static RunKey key(Run run) {
    return new RunKey(
        run.getMetadata().getNamespace(), run.getSpec().getThread(), run.getMetadata().getName());
  }

  /** The next batch of events numbered above {@code afterSeq}, oldest first. */
  List<LogEvent> after(Run run, long afterSeq) {
    return read(run, afterSeq, BATCH);
  }

  /** The next batch of events numbered above {@code afterSeq} and at most {@code uptoSeq}. */
  List<LogEvent> between(Run run, long afterSeq, long uptoSeq) {
    // The store numbers a run's events without gaps: the count is the bound.
    return read(run, afterSeq, (int) Math.min(BATCH, Math.max(0, uptoSeq - afterSeq)));
  }

  private List<LogEvent> read(Run run, long afterSeq, int limit) {
    if (limit == 0) {
      return List.of();
    }
    return history.events().after(key(run), afterSeq, limit).stream().map(LogEvent::of).toList();
  }

  /** The whole log, oldest first. */
  public List<LogEvent> all(Run run) {
    List<LogEvent> all = new ArrayList<>();
    for (List<LogEvent> batch = after(run, 0);
        !batch.isEmpty();
        batch = after(run, batch.getLast().seq())) {
      all.addAll(batch);
    }
    return all;
  }

  /** The run's latest event of {@code type}, e.g. its {@code result}. */
  public Optional<LogEvent> latest(Run run, String type) {
    return history.events().latestOfType(key(run), type).map(LogEvent::of);
  }
}
