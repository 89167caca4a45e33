package dev.threadline.runner.workspace;

import dev.threadline.runner.tools.ToolException;
import dev.threadline.runner.tools.WorkspacePaths;
import dev.threadline.runner.workspace.WorkspaceSnapshot.FileState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Brings a workspace's regular files back to a snapshot: files made since are deleted, changed or
 * deleted ones written back with the content the snapshot kept. What the snapshot did not keep (a
 * file over {@link WorkspaceSnapshot#MAX_CONTENT_BYTES} or past its budget) cannot be written back
 * and is reported; {@code .git} folders and symbolic links are outside snapshots and stay as they
 * are. Every path is confined to the workspace (a link made since cannot lead a write outside).
 */
public final class WorkspaceRevert {
  private WorkspaceRevert() {}

  /**
   * @param restored files written back
   * @param removed files made since the snapshot, deleted
   * @param unrestorable paths whose earlier content the snapshot did not keep, or that could not be
   *     written
   */
  public record Result(int restored, int removed, List<String> unrestorable) {}

  public static Result to(Path root, WorkspaceSnapshot before) {
    WorkspacePaths paths = new WorkspacePaths(root);
    Map<String, FileState> now = WorkspaceSnapshot.take(root).files();
    Map<String, FileState> then = before.files();
    int restored = 0;
    int removed = 0;
    List<String> unrestorable = new ArrayList<>();
    for (String path : now.keySet()) {
      if (!then.containsKey(path)) {
        if (apply(paths, path, null)) {
          removed++;
        } else {
          unrestorable.add(path);
        }
      }
    }
    for (Map.Entry<String, FileState> file : then.entrySet()) {
      FileState current = now.get(file.getKey());
      if (current != null && current.sameContentAs(file.getValue())) {
        continue;
      }
      if (file.getValue().content() != null && apply(paths, file.getKey(), file.getValue())) {
        restored++;
      } else {
        unrestorable.add(file.getKey());
      }
    }
    return new Result(restored, removed, unrestorable.stream().sorted().toList());
  }

  /** Deletes the file ({@code state} null) or writes its kept content; false when it could not. */
  private static boolean apply(WorkspacePaths paths, String path, FileState state) {
    try {
      Path file = paths.resolve(path);
      if (state == null) {
        Files.deleteIfExists(file);
      } else {
        Files.createDirectories(file.getParent());
        Files.write(paths.resolve(path), state.content());
      }
      return true;
    } catch (IOException | ToolException e) {
      return false;
    }
  }
}
