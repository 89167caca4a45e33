package dev.threadline.runner.serve;

import dev.threadline.runner.workspace.FileDiff;
import dev.threadline.runner.workspace.WorkspaceDiff;
import dev.threadline.runner.workspace.WorkspaceRevert;
import dev.threadline.runner.workspace.WorkspaceSnapshot;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The baselines the worker takes of the workspace, by id, for diffs later. A snapshot may hold tens
 * of megabytes of file contents, so only the latest few are kept.
 */
final class WorkspaceSnapshots {
  static final int KEPT = 4;

  private final Path workspace;
  private final Map<String, WorkspaceSnapshot> snapshots = new LinkedHashMap<>();

  WorkspaceSnapshots(Path workspace) {
    this.workspace = workspace;
  }

  String take() {
    WorkspaceSnapshot snapshot = WorkspaceSnapshot.take(workspace);
    String id = UUID.randomUUID().toString();
    synchronized (this) {
      snapshots.put(id, snapshot);
      Iterator<String> oldestFirst = snapshots.keySet().iterator();
      while (snapshots.size() > KEPT) {
        oldestFirst.next();
        oldestFirst.remove();
      }
    }
    return id;
  }

  /** Brings the workspace back to the snapshot {@code id} (see {@link WorkspaceRevert}). */
  WorkspaceRevert.Result revertTo(String id) {
    return WorkspaceRevert.to(workspace, kept(id));
  }

  /** What changed since the snapshot {@code id}. */
  List<FileDiff> diffSince(String id) {
    return WorkspaceDiff.between(kept(id), WorkspaceSnapshot.take(workspace));
  }

  private WorkspaceSnapshot kept(String id) {
    if (id == null || id.isBlank()) {
      throw FileApiException.badRequest("snapshot is required");
    }
    WorkspaceSnapshot before;
    synchronized (this) {
      before = snapshots.get(id);
    }
    if (before == null) {
      throw FileApiException.notFound(
          "no snapshot " + id + " (only the latest " + KEPT + " are kept)");
    }
    return before;
  }
}
