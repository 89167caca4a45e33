package dev.threadline.runner.workspace;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import dev.threadline.core.events.RunnerEventData;
import dev.threadline.runner.tools.TextFiles;
import dev.threadline.runner.workspace.WorkspaceSnapshot.FileState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What changed in the workspace between two snapshots, file by file, with line counts. */
public final class WorkspaceDiff {

  /** A created file's content is shown up to this many bytes. */
  public static final int MAX_SHOWN_BYTES = 64 * 1024;

  private WorkspaceDiff() {}

  /** Created, modified and deleted files, in path order. */
  public static List<FileDiff> between(WorkspaceSnapshot before, WorkspaceSnapshot after) {
    List<FileDiff> diffs = new ArrayList<>();
    Map<String, FileState> old = before.files();
    after
        .files()
        .forEach((path, now) -> {
          FileState was = old.get(path);
          if (was == null) {
            diffs.add(created(path, now));
          } else if (!was.sameContentAs(now)) {
            diffs.add(modified(path, was, now));
          }
        });
    old.forEach((path, was) -> {
      if (!after.files().containsKey(path)) {
        diffs.add(
            new FileDiff(
                path,
                RunnerEventData.CHANGE_DELETE,
                0,
                text(was).map(TextFiles::lineCount).orElse(0),
                null));
      }
    });
    diffs.sort((a, b) -> a.path().compareTo(b.path()));
    return diffs;
  }

  private static FileDiff created(String path, FileState now) {
    if (now.content() == null) {
      return new FileDiff(
          path,
          RunnerEventData.CHANGE_CREATE,
          0,
          0,
          "[file too large to show: " + now.size() + " bytes]");
    }
    Optional<String> text = text(now);
    if (text.isEmpty()) {
      return new FileDiff(
          path, RunnerEventData.CHANGE_CREATE, 0, 0, "[binary file: " + now.size() + " bytes]");
    }
    return new FileDiff(
        path,
        RunnerEventData.CHANGE_CREATE,
        TextFiles.lineCount(text.get()),
        0,
        shown(now.content()));
  }

  private static FileDiff modified(String path, FileState was, FileState now) {
    Optional<String> oldText = text(was);
    Optional<String> newText = text(now);
    if (oldText.isEmpty() || newText.isEmpty()) {
      return new FileDiff(path, RunnerEventData.CHANGE_MODIFY, 0, 0, null);
    }
    int additions = 0;
    int deletions = 0;
    for (AbstractDelta<String> delta :
        DiffUtils.diff(oldText.get().lines().toList(), newText.get().lines().toList())
            .getDeltas()) {
      deletions += delta.getSource().size();
      additions += delta.getTarget().size();
    }
    return new FileDiff(path, RunnerEventData.CHANGE_MODIFY, additions, deletions, null);
  }

  private static Optional<String> text(FileState state) {
    return state.content() == null ? Optional.empty() : TextFiles.decode(state.content());
  }

  private static String shown(byte[] content) {
    if (content.length <= MAX_SHOWN_BYTES) {
      return new String(content, StandardCharsets.UTF_8);
    }
    return new String(content, 0, MAX_SHOWN_BYTES, StandardCharsets.UTF_8)
        + "\n[truncated: "
        + (content.length - MAX_SHOWN_BYTES)
        + " more bytes]";
  }
}
