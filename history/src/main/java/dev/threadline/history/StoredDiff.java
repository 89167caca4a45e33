package dev.threadline.history;

/**
 * One file a run changed.
 *
 * @param change {@code create}, {@code modify} or {@code delete}
 * @param content the new file's content (create), or null
 * @param additions lines added (modify), or null
 * @param deletions lines removed (modify), or null
 */
public record StoredDiff(
    String path, String change, String content, Long additions, Long deletions) {}
