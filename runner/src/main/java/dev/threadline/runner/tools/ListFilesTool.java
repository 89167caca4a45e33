package dev.threadline.runner.tools;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code list_files}: the files and folders under a workspace folder, a few levels deep, one per
 * line (folders end with {@code /}). {@code .git} is not listed.
 */
public final class ListFilesTool implements Tool {

  static final int MAX_DEPTH = 3;
  static final int MAX_ENTRIES = 500;

  private final WorkspacePaths paths;

  public ListFilesTool(WorkspacePaths paths) {
    this.paths = paths;
  }

  @Override
  public String name() {
    return "list_files";
  }

  @Override
  public String type() {
    return "file_list";
  }

  @Override
  public ToolResult run(Map<String, Object> arguments) {
    Path folder = paths.resolve(ToolArguments.optionalString(arguments, "path", "."));
    String shown = paths.relative(folder);
    if (!Files.isDirectory(folder)) {
      throw new ToolException(shown + " is not a folder");
    }
    List<String> lines = new ArrayList<>();
    boolean[] truncated = {false};
    try {
      Files.walkFileTree(
          folder,
          java.util.Set.of(),
          MAX_DEPTH,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              if (dir.equals(folder)) {
                return FileVisitResult.CONTINUE;
              }
              if (dir.getFileName().toString().equals(".git")) {
                return FileVisitResult.SKIP_SUBTREE;
              }
              return add(folder.relativize(dir) + "/");
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (file.getFileName().toString().equals(".git")) {
                return FileVisitResult
                    .CONTINUE; // at the depth limit folders arrive here, not in preVisitDirectory
              }
              String name = folder.relativize(file).toString();
              return add(attrs.isDirectory() ? name + "/" : name);
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }

            private FileVisitResult add(String line) {
              if (lines.size() >= MAX_ENTRIES) {
                truncated[0] = true;
                return FileVisitResult.TERMINATE;
              }
              lines.add(line.replace('\\', '/'));
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new ToolException("cannot list " + shown + ": " + e.getMessage(), e);
    }
    lines.sort(null);
    String listing = lines.isEmpty() ? "(empty)" : String.join("\n", lines);
    if (truncated[0]) {
      listing += "\n[... more than " + MAX_ENTRIES + " entries; list a subfolder to see more ...]";
    }
    return ToolResult.success(type(), shown, listing);
  }
}
