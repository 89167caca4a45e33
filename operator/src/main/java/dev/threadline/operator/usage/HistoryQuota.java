package dev.threadline.operator.usage;

import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.run.Run;
import dev.threadline.history.History;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The storage quota of a user's conversation history ({@value #SETTING}) for the runs the API
 * server did not admit: a schedule's firings and Runs applied with kubectl. The API server refuses
 * a REST message past it with 403; such a run is refused here when it first reaches the operator,
 * ending {@code failed} with the same words, so no firing silently takes a user past it.
 *
 * @param maxBytes the most a user may keep
 */
public record HistoryQuota(History history, long maxBytes) {
  public static final String SETTING = "THREADLINE_LIMITS_HISTORYBYTES";

  public HistoryQuota {
    if (maxBytes < 1) {
      throw new IllegalArgumentException(SETTING + " must be at least 1 byte: " + maxBytes);
    }
  }

  /**
   * Why {@code run}, whose whole message is {@code message}, may not start: empty when it may (the
   * API server checked it already, or the user's history has room for its message).
   */
  public Optional<String> refusal(Run run, String message) {
    if (ThreadRuns.SOURCE_API.equals(run.getSpec().getSource())) {
      return Optional.empty(); // checked by the API server before it made the Run
    }
    String namespace = run.getMetadata().getNamespace();
    long kept = history.usage().bytes(namespace);
    long adding = message == null ? 0 : message.getBytes(StandardCharsets.UTF_8).length;
    if (kept + adding <= maxBytes) {
      return Optional.empty();
    }
    return Optional.of(
        "Limit exceeded: a user may keep at most "
            + maxBytes
            + " bytes of conversation history ("
            + SETTING
            + "); this user keeps "
            + kept
            + ": the run did not start (delete threads to let it run)");
  }
}
