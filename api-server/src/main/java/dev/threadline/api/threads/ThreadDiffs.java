package dev.threadline.api.threads;

import dev.threadline.crds.run.FileDiff;
import dev.threadline.crds.run.Run;
import dev.threadline.crds.run.RunStatus;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How a thread's runs changed its workspace: per path, the latest run's change wins (a file made in
 * one run and edited in the next reads as modified). A file whose latest change deleted it has no
 * entry: the contract's entries are creations and modifications. Sorted by path.
 */
final class ThreadDiffs {
  static final String CREATE = "create";
  static final String MODIFY = "modify";
  static final String DELETE = "delete";

  private ThreadDiffs() {}

  /** {@code runs} in sequence order. */
  static List<DiffEntry> of(List<Run> runs) {
    Map<String, FileDiff> latest = new TreeMap<>();
    for (Run run : runs) {
      List<FileDiff> diffs =
          Optional.ofNullable(run.getStatus()).map(RunStatus::getDiffs).orElse(List.of());
      for (FileDiff diff : diffs) {
        if (diff.getPath() != null) {
          latest.put(diff.getPath(), diff);
        }
      }
    }
    return latest.values().stream()
        .filter(diff -> !DELETE.equals(diff.getType()))
        .map(ThreadDiffs::entry)
        .toList();
  }

  private static DiffEntry entry(FileDiff diff) {
    if (CREATE.equals(diff.getType())) {
      return new DiffEntry(
          diff.getPath(), CREATE, Objects.requireNonNullElse(diff.getContent(), ""), null, null);
    }
    return new DiffEntry(
        diff.getPath(),
        MODIFY,
        null,
        Objects.requireNonNullElse(diff.getAdditions(), 0L),
        Objects.requireNonNullElse(diff.getDeletions(), 0L));
  }
}
