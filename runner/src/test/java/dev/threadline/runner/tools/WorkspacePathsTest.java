package dev.threadline.runner.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkspacePathsTest {

  @TempDir Path temp;

  private Path workspace() throws Exception {
    return Files.createDirectories(temp.resolve("workspace"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x", "a/../../x", "/etc/passwd", "/", ""})
  void refusesPathsOutsideTheWorkspace(String path) throws Exception {
    WorkspacePaths paths = new WorkspacePaths(workspace());

    assertThatThrownBy(() -> paths.resolve(path)).isInstanceOf(ToolException.class);
  }

  @Test
  void acceptsRelativeAndInsideAbsolutePaths() throws Exception {
    Path root = workspace();
    WorkspacePaths paths = new WorkspacePaths(root);

    assertThat(paths.resolve("a/./b/../c.txt")).isEqualTo(root.resolve("a/c.txt"));
    assertThat(paths.resolve(root.resolve("d.txt").toString())).isEqualTo(root.resolve("d.txt"));
    assertThat(paths.relative(paths.resolve("."))).isEqualTo(".");
  }

  @Test
  void keepsABackslashInAFileNameAsItIs() throws Exception {
    Path root = workspace();
    WorkspacePaths paths = new WorkspacePaths(root);
    Path file = Files.writeString(root.resolve("a\\b.txt"), "x");

    assertThat(paths.relative(file)).isEqualTo("a\\b.txt");
    assertThat(paths.resolve(paths.relative(file))).isEqualTo(file);
  }

  @Test
  void refusesSymlinksThatLeadOutside() throws Exception {
    Path root = workspace();
    Path outside = Files.createDirectories(temp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "secret");
    Files.createSymbolicLink(root.resolve("link.txt"), outside.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("linkdir"), outside);
    Files.createSymbolicLink(root.resolve("dangling"), outside.resolve("new.txt"));
    WorkspacePaths paths = new WorkspacePaths(root);

    assertThatThrownBy(() -> paths.resolve("link.txt"))
        .hasMessageContaining("outside the workspace");
    assertThatThrownBy(() -> paths.resolve("linkdir/new.txt"))
        .hasMessageContaining("outside the workspace");
    assertThatThrownBy(() -> paths.resolve("dangling")).hasMessageContaining("does not exist");

    ToolResult write =
        ToolRegistry.execute(
            new WriteFileTool(paths), "{\"path\":\"linkdir/new.txt\",\"content\":\"x\"}");
    ToolResult read =
        ToolRegistry.execute(new ReadFileTool(paths, 100), "{\"path\":\"/etc/passwd\"}");
    assertThat(write.succeeded()).isFalse();
    assertThat(read.output())
        .isEqualTo(
            "error: '/etc/passwd' is outside the workspace; use a path relative to the "
                + "workspace");
    assertThat(outside.resolve("new.txt")).doesNotExist();
  }

  @Test
  void followsSymlinksThatStayInside() throws Exception {
    Path root = workspace();
    Files.createDirectories(root.resolve("real"));
    Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));

    assertThat(new WorkspacePaths(root).resolve("alias/file.txt"))
        .isEqualTo(root.resolve("alias/file.txt"));
  }
}
