package dev.threadline.api.limits;

import dev.threadline.history.History;
import java.nio.charset.StandardCharsets;

/**
 * How many bytes of conversation history (messages, events, diffs, memory, workspaces) a user may
 * keep in the history store: a new message that would pass it is refused (403 {@code
 * limit_exceeded}), so one tenant cannot fill the store. The store keeps each user's total in one
 * row, so the check is one read.
 *
 * @param maxBytes the most a user may keep ({@code threadline.limits.history-bytes})
 */
public record HistoryQuota(History history, long maxBytes) {
  /** The setting that names the limit, as an error message says it. */
  public static final String SETTING = "THREADLINE_LIMITS_HISTORYBYTES";

  public HistoryQuota {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("historyBytes must be at least 1: " + maxBytes);
    }
  }

  /** Refuses {@code message} when the user's history and it would pass the quota. */
  public void checkRoom(String namespace, String message) {
    long kept = history.usage().bytes(namespace);
    long adding = message == null ? 0 : message.getBytes(StandardCharsets.UTF_8).length;
    if (kept + adding > maxBytes) {
      throw new LimitExceededException(
          "Limit exceeded: a user may keep at most "
              + maxBytes
              + " bytes of conversation history ("
              + SETTING
              + "); this user keeps "
              + kept
              + ": delete threads before sending more messages");
    }
  }
}
