package dev.threadline.runner.run;

import dev.threadline.runner.run.RunInput.Attachment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/** Copies the run's attachments into {@code attachments/} in the workspace. */
final class Attachments {

  static final String FOLDER = "attachments";

  /**
   * @param placed the names copied; @param problems one line per attachment that could not be
   */
  record Placement(List<String> placed, List<String> problems) {}

  private Attachments() {}

  static Placement place(List<Attachment> attachments, Path workspace) {
    List<String> placed = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    if (attachments.isEmpty()) {
      return new Placement(placed, problems);
    }
    Path folder = workspace.resolve(FOLDER);
    for (Attachment attachment : attachments) {
      try {
        Files.createDirectories(folder);
        Files.copy(
            Path.of(attachment.path()),
            folder.resolve(attachment.name()),
            StandardCopyOption.REPLACE_EXISTING);
        placed.add(attachment.name());
      } catch (IOException | RuntimeException e) {
        problems.add(
            "attachment "
                + attachment.name()
                + " could not be placed: "
                + e.getClass().getSimpleName()
                + ": "
                + e.getMessage());
      }
    }
    return new Placement(placed, problems);
  }
}
