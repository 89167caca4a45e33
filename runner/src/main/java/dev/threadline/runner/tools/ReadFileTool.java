package dev.threadline.runner.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** {@code read_file}: a text file of the workspace, cut at the output limit. */
public final class ReadFileTool implements Tool {

  private final WorkspacePaths paths;
  private final int outputLimitBytes;

  public ReadFileTool(WorkspacePaths paths, int outputLimitBytes) {
    this.paths = paths;
    this.outputLimitBytes = outputLimitBytes;
  }

  @Override
  public String name() {
    return "read_file";
  }

  @Override
  public String type() {
    return "file_read";
  }

  @Override
  public ToolResult run(Map<String, Object> arguments) {
    Path file = paths.resolve(ToolArguments.requiredString(arguments, "path"));
    String shown = paths.relative(file);
    if (Files.isDirectory(file)) {
      throw new ToolException(shown + " is a directory; use list_files");
    }
    if (!Files.isRegularFile(file)) {
      throw new ToolException(shown + " does not exist");
    }
    try {
      long size = Files.size(file);
      byte[] head = TextFiles.readHead(file, (int) Math.min(size, outputLimitBytes));
      if (head.length < size) {
        // Cut at the limit: the last character may be split, so decode leniently.
        String text = new String(head, StandardCharsets.UTF_8);
        return ToolResult.success(
            type(),
            shown,
            text + "\n[... file truncated: showing " + head.length + " of " + size + " bytes ...]");
      }
      return TextFiles.decode(head)
          .map(text -> ToolResult.success(type(), shown, text))
          .orElseThrow(() ->
              new ToolException(
                  shown
                      + " is a binary file ("
                      + size
                      + " bytes); inspect it with "
                      + "run_command instead"));
    } catch (IOException e) {
      throw new ToolException("cannot read " + shown + ": " + e.getMessage(), e);
    }
  }
}
