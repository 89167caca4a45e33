package dev.threadline.api.threads;

import dev.threadline.history.StoredDiff;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * How a thread's runs changed its workspace: per path, the latest run's change wins (a file made in
 * one run and edited in the next reads as modified), as the history store answers it. A file whose
 * latest change deleted it has no entry: the contract's entries are creations and modifications.
 * Sorted by path.
 */
final class ThreadDiffs {
  static final String CREATE = "create";
  static final String MODIFY = "modify";
  static final String DELETE = "delete";

  private ThreadDiffs() {}

  /** {@code latest}: per path, the latest change, in path order. */
  static List<DiffEntry> of(Collection<StoredDiff> latest) {
    return latest.stream()
        .filter(diff -> diff.path() != null && !DELETE.equals(diff.change()))
        .map(ThreadDiffs::entry)
        .toList();
  }

  private static DiffEntry entry(StoredDiff diff) {
    if (CREATE.equals(diff.change())) {
      return new DiffEntry(
          diff.path(), CREATE, Objects.requireNonNullElse(diff.content(), ""), null, null);
    }
    return new DiffEntry(
        diff.path(),
        MODIFY,
        null,
        Objects.requireNonNullElse(diff.additions(), 0L),
        Objects.requireNonNullElse(diff.deletions(), 0L));
  }
}
