package dev.threadline.operator.usage;

import dev.threadline.core.limits.HistoryRoom;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.history.History;
import java.util.Optional;

/**
 * The storage quota of a user's conversation history ({@value HistoryRoom#SETTING}) for the runs
 * the API server did not admit: a schedule's firings and Runs applied with kubectl. The API server
 * refuses a REST message past it with 403; such a run is refused here when it first reaches the
 * operator, ending {@code failed} with the same words, so no firing silently takes a user past it.
 *
 * @param room the quota
 */
public record HistoryQuota(History history, HistoryRoom room) {
  public HistoryQuota(History history, long maxBytes) {
    this(history, new HistoryRoom(maxBytes));
  }

  /**
   * Why {@code run}, whose whole message is {@code message}, may not start: empty when it may (the
   * API server checked it already, or the user's history has room for its message).
   */
  public Optional<String> refusal(Run run, String message) {
    if (ThreadRuns.SOURCE_API.equals(run.getSpec().getSource())) {
      return Optional.empty(); // checked by the API server before it made the Run
    }
    return room.refusal(
        history.usage().bytes(run.getMetadata().getNamespace()),
        message,
        "the run did not start (delete threads to let it run)");
  }
}
