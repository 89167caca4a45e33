package dev.threadline.runner.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceRevertTest {

  @TempDir Path workspace;
  @TempDir Path outside;

  @Test
  void removesFilesMadeSinceAndWritesBackChangedAndDeletedOnes() throws Exception {
    Files.writeString(workspace.resolve("keep.txt"), "same\n");
    Files.writeString(workspace.resolve("edit.txt"), "a\nb\n");
    Files.createDirectories(workspace.resolve("src"));
    Files.writeString(workspace.resolve("src/gone.txt"), "1\n");
    WorkspaceSnapshot before = WorkspaceSnapshot.take(workspace);

    Files.writeString(workspace.resolve("edit.txt"), "changed\n");
    Files.delete(workspace.resolve("src/gone.txt"));
    Files.delete(workspace.resolve("src"));
    Files.createDirectories(workspace.resolve("new"));
    Files.writeString(workspace.resolve("new/made.txt"), "hello\n");

    WorkspaceRevert.Result result = WorkspaceRevert.to(workspace, before);

    assertThat(result).isEqualTo(new WorkspaceRevert.Result(2, 1, java.util.List.of()));
    assertThat(WorkspaceDiff.between(before, WorkspaceSnapshot.take(workspace))).isEmpty();
    assertThat(workspace.resolve("edit.txt")).hasContent("a\nb");
    assertThat(workspace.resolve("src/gone.txt")).hasContent("1");
    assertThat(workspace.resolve("new/made.txt")).doesNotExist();
  }

  @Test
  void neverWritesThroughALinkMadeSinceAndReportsWhatItCouldNotRestore() throws Exception {
    Files.createDirectories(workspace.resolve("src"));
    Files.writeString(workspace.resolve("src/a.txt"), "a\n");
    WorkspaceSnapshot before = WorkspaceSnapshot.take(workspace);

    Files.delete(workspace.resolve("src/a.txt"));
    Files.delete(workspace.resolve("src"));
    Files.createSymbolicLink(workspace.resolve("src"), outside);

    WorkspaceRevert.Result result = WorkspaceRevert.to(workspace, before);

    assertThat(result.unrestorable()).containsExactly("src/a.txt");
    assertThat(outside.resolve("a.txt")).doesNotExist();
  }
}
