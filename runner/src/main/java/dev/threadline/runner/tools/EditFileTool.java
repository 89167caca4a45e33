package dev.threadline.runner.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code edit_file}: replaces one exact piece of text in a file. The piece must occur exactly once,
 * so the model cannot change a place it did not mean to.
 */
public final class EditFileTool implements Tool {

  private final WorkspacePaths paths;

  public EditFileTool(WorkspacePaths paths) {
    this.paths = paths;
  }

  @Override
  public String name() {
    return "edit_file";
  }

  @Override
  public String type() {
    return "file_edit";
  }

  @Override
  public ToolResult run(Map<String, Object> arguments) {
    Path file = paths.resolve(ToolArguments.requiredString(arguments, "path"));
    String oldText = ToolArguments.requiredString(arguments, "old_text");
    String newText = ToolArguments.requiredString(arguments, "new_text");
    String shown = paths.relative(file);
    if (oldText.isEmpty()) {
      throw new ToolException("old_text must not be empty; use write_file to create a file");
    }
    if (!Files.isRegularFile(file)) {
      throw new ToolException(shown + " does not exist");
    }
    try {
      String content =
          TextFiles.decode(Files.readAllBytes(file))
              .orElseThrow(() -> new ToolException(shown + " is a binary file"));
      int occurrences = occurrences(content, oldText);
      if (occurrences == 0) {
        throw new ToolException("old_text was not found in " + shown);
      }
      if (occurrences > 1) {
        throw new ToolException(
            "old_text occurs "
                + occurrences
                + " times in "
                + shown
                + "; include more surrounding text so it occurs exactly once");
      }
      int at = content.indexOf(oldText);
      String edited = content.substring(0, at) + newText + content.substring(at + oldText.length());
      Files.writeString(file, edited, StandardCharsets.UTF_8);
      return ToolResult.success(type(), shown, "edited " + shown);
    } catch (IOException e) {
      throw new ToolException("cannot edit " + shown + ": " + e.getMessage(), e);
    }
  }

  private static int occurrences(String content, String piece) {
    int count = 0;
    for (int at = content.indexOf(piece);
        at >= 0;
        at = content.indexOf(piece, at + piece.length())) {
      count++;
    }
    return count;
  }
}
