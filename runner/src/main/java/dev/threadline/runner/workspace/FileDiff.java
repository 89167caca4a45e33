package dev.threadline.runner.workspace;

/**
 * How one file changed during a run.
 *
 * @param path relative to the workspace, {@code /} separators
 * @param change {@code create}, {@code modify} or {@code delete}
 * @param additions lines added (0 when they could not be counted)
 * @param deletions lines removed (0 when they could not be counted)
 * @param content for a created file, its text (bounded, or a note for binary and large files); null
 *     otherwise
 */
public record FileDiff(String path, String change, int additions, int deletions, String content) {}
