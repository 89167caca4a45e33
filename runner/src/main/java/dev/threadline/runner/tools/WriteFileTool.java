package dev.threadline.runner.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** {@code write_file}: creates or replaces a text file of the workspace, creating its folders. */
public final class WriteFileTool implements Tool {

  private final WorkspacePaths paths;

  public WriteFileTool(WorkspacePaths paths) {
    this.paths = paths;
  }

  @Override
  public String name() {
    return "write_file";
  }

  @Override
  public String type() {
    return "file_write";
  }

  @Override
  public ToolResult run(Map<String, Object> arguments) {
    Path file = paths.resolve(ToolArguments.requiredString(arguments, "path"));
    String content = ToolArguments.requiredString(arguments, "content");
    String shown = paths.relative(file);
    if (Files.isDirectory(file)) {
      throw new ToolException(shown + " is a directory");
    }
    try {
      boolean existed = Files.exists(file);
      Files.createDirectories(file.getParent());
      byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
      Files.write(file, bytes);
      return ToolResult.success(
          type(),
          shown,
          (existed ? "replaced " : "created ") + shown + " (" + bytes.length + " bytes)");
    } catch (IOException e) {
      throw new ToolException("cannot write " + shown + ": " + e.getMessage(), e);
    }
  }
}
