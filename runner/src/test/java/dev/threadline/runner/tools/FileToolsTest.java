package dev.threadline.runner.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileToolsTest {

  @TempDir Path workspace;

  private WorkspacePaths paths() {
    return new WorkspacePaths(workspace);
  }

  private static ToolResult call(Tool tool, Map<String, Object> arguments) {
    try {
      return ToolRegistry.execute(tool, new ObjectMapper().writeValueAsString(arguments));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void writesCreatingFoldersThenReadsBack() {
    ToolResult written =
        call(new WriteFileTool(paths()), Map.of("path", "src/notes.txt", "content", "héllo\n"));
    ToolResult read = call(new ReadFileTool(paths(), 1000), Map.of("path", "src/notes.txt"));

    assertThat(written.succeeded()).isTrue();
    assertThat(written.path()).isEqualTo("src/notes.txt");
    assertThat(written.output()).isEqualTo("created src/notes.txt (7 bytes)");
    assertThat(read.output()).isEqualTo("héllo\n");
    assertThat(read.type()).isEqualTo("file_read");
  }

  @Test
  void readingCutsAtTheOutputLimitAndRefusesBinaries() throws Exception {
    Files.writeString(workspace.resolve("big.txt"), "x".repeat(50));
    Files.write(workspace.resolve("blob.bin"), new byte[] {1, 0, 2});

    assertThat(call(new ReadFileTool(paths(), 10), Map.of("path", "big.txt")).output())
        .startsWith("xxxxxxxxxx\n")
        .contains("showing 10 of 50 bytes");
    assertThat(call(new ReadFileTool(paths(), 10), Map.of("path", "blob.bin")).output())
        .isEqualTo(
            "error: blob.bin is a binary file (3 bytes); inspect it with run_command instead");
    assertThat(call(new ReadFileTool(paths(), 10), Map.of("path", "nope.txt")).succeeded())
        .isFalse();
  }

  @Test
  void editsExactlyOneOccurrence() throws Exception {
    Files.writeString(workspace.resolve("app.py"), "x = 1\ny = 1\n");
    EditFileTool edit = new EditFileTool(paths());

    ToolResult ambiguous =
        call(edit, Map.of("path", "app.py", "old_text", "= 1", "new_text", "= 2"));
    ToolResult missing =
        call(edit, Map.of("path", "app.py", "old_text", "z = 1", "new_text", "z = 2"));
    ToolResult done =
        call(edit, Map.of("path", "app.py", "old_text", "y = 1", "new_text", "y = 2"));

    assertThat(ambiguous.output())
        .isEqualTo(
            "error: old_text occurs 2 times in app.py; include more surrounding text so it occurs"
                + " exactly once");
    assertThat(missing.output()).isEqualTo("error: old_text was not found in app.py");
    assertThat(done.succeeded()).isTrue();
    assertThat(workspace.resolve("app.py")).hasContent("x = 1\ny = 2");
  }

  @Test
  void listsFoldersWithASlashAndSkipsGit() throws Exception {
    Files.createDirectories(workspace.resolve("src/main"));
    Files.createDirectories(workspace.resolve(".git/objects"));
    Files.writeString(workspace.resolve("src/main/App.java"), "class App {}");
    Files.writeString(workspace.resolve("README.md"), "# hi");

    ToolResult all = call(new ListFilesTool(paths()), Map.of());
    ToolResult sub = call(new ListFilesTool(paths()), Map.of("path", "src"));

    assertThat(all.output()).isEqualTo("README.md\nsrc/\nsrc/main/\nsrc/main/App.java");
    assertThat(all.path()).isEqualTo(".");
    assertThat(sub.output()).isEqualTo("main/\nmain/App.java");
  }

  @Test
  void argumentsThatAreNotAnObjectAreAToolError() {
    ToolResult result = ToolRegistry.execute(new ReadFileTool(paths(), 10), "[1");

    assertThat(result.succeeded()).isFalse();
    assertThat(result.forModel()).startsWith("error: the arguments are not a JSON object");
  }
}
