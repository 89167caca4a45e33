package dev.threadline.runner.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceDiffTest {

  @TempDir Path workspace;

  @Test
  void keepsABackslashInAFileNameAsItIs() throws Exception {
    WorkspaceSnapshot before = WorkspaceSnapshot.take(workspace);
    Files.createDirectories(workspace.resolve("dir"));
    Files.writeString(workspace.resolve("dir/a\\b.txt"), "x\n");

    assertThat(WorkspaceSnapshot.take(workspace).files()).containsOnlyKeys("dir/a\\b.txt");
    assertThat(WorkspaceDiff.between(before, WorkspaceSnapshot.take(workspace)))
        .containsExactly(new FileDiff("dir/a\\b.txt", "create", 1, 0, "x\n"));
  }

  @Test
  void findsCreatedModifiedAndDeletedFilesWithLineCounts() throws Exception {
    Files.writeString(workspace.resolve("keep.txt"), "same\n");
    Files.writeString(workspace.resolve("edit.txt"), "a\nb\nc\n");
    Files.writeString(workspace.resolve("gone.txt"), "1\n2\n");
    WorkspaceSnapshot before = WorkspaceSnapshot.take(workspace);

    Files.writeString(workspace.resolve("edit.txt"), "a\nB\nc\nd\n");
    Files.delete(workspace.resolve("gone.txt"));
    Files.createDirectories(workspace.resolve("src"));
    Files.writeString(workspace.resolve("src/new.txt"), "hello\n");
    List<FileDiff> diffs = WorkspaceDiff.between(before, WorkspaceSnapshot.take(workspace));

    assertThat(diffs)
        .containsExactly(
            new FileDiff("edit.txt", "modify", 2, 1, null),
            new FileDiff("gone.txt", "delete", 0, 2, null),
            new FileDiff("src/new.txt", "create", 1, 0, "hello\n"));
  }

  @Test
  void ignoresGitAndSummarisesBinaryAndLargeFiles() throws Exception {
    WorkspaceSnapshot before = WorkspaceSnapshot.take(workspace);
    Files.createDirectories(workspace.resolve(".git"));
    Files.writeString(workspace.resolve(".git/HEAD"), "ref: refs/heads/main\n");
    Files.write(workspace.resolve("image.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0});
    Files.writeString(workspace.resolve("big.log"), "x".repeat(WorkspaceDiff.MAX_SHOWN_BYTES + 10));

    List<FileDiff> diffs = WorkspaceDiff.between(before, WorkspaceSnapshot.take(workspace));

    assertThat(diffs).extracting(FileDiff::path).containsExactly("big.log", "image.png");
    assertThat(diffs.get(0).content()).endsWith("\n[truncated: 10 more bytes]");
    assertThat(diffs.get(1).content()).isEqualTo("[binary file: 5 bytes]");
  }
}
