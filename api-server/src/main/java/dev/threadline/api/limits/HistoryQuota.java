package dev.threadline.api.limits;

import dev.threadline.core.limits.HistoryRoom;
import dev.threadline.history.History;

/**
 * How many bytes of conversation history (messages, events, diffs, memory, workspaces) a user may
 * keep in the history store: a new message that would pass it is refused (403 {@code
 * limit_exceeded}), so one tenant cannot fill the store. The store keeps each user's total in one
 * row, so the check is one read.
 *
 * @param room the quota ({@code threadline.limits.history-bytes})
 */
public record HistoryQuota(History history, HistoryRoom room) {
  public HistoryQuota(History history, long maxBytes) {
    this(history, new HistoryRoom(maxBytes));
  }

  /** Refuses {@code message} when the user's history and it would pass the quota. */
  public void checkRoom(String namespace, String message) {
    room.refusal(
            history.usage().bytes(namespace),
            message,
            "delete threads before sending more messages")
        .ifPresent(refusal -> {
          throw new LimitExceededException(refusal);
        });
  }
}
