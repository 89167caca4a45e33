package dev.threadline.core.limits;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The storage quota of a user's conversation history ({@value #SETTING}): one rule and one wording
 * for the API server (a REST message past it is refused with 403) and the operator (a run it did
 * not admit, such as a schedule's firing, ends {@code failed}).
 *
 * @param maxBytes the most a user may keep
 */
public record HistoryRoom(long maxBytes) {
  /** The environment variable (chart value {@code limits.historyBytes}). */
  public static final String SETTING = "THREADLINE_LIMITS_HISTORYBYTES";

  public HistoryRoom {
    if (maxBytes < 1) {
      throw new IllegalArgumentException(SETTING + " must be at least 1 byte: " + maxBytes);
    }
  }

  /**
   * Why a user who keeps {@code keptBytes} may not add {@code message}: empty when it fits. The
   * words end with the sentence the caller gives (what did not happen and what to do).
   */
  public Optional<String> refusal(long keptBytes, String message, String consequence) {
    long adding = message == null ? 0 : message.getBytes(StandardCharsets.UTF_8).length;
    if (keptBytes + adding <= maxBytes) {
      return Optional.empty();
    }
    return Optional.of(
        "Limit exceeded: a user may keep at most "
            + maxBytes
            + " bytes of conversation history ("
            + SETTING
            + "); this user keeps "
            + keptBytes
            + ": "
            + consequence);
  }
}
