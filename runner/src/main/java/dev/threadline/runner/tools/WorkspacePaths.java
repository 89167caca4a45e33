package dev.threadline.runner.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Keeps the file tools inside the workspace. A path the model gives is taken relative to the
 * workspace (an absolute one must already lie inside it); it is refused when it climbs out with
 * {@code ..}, or when a symbolic link on the way leads out (checked on the real path of the deepest
 * part that exists, so a file about to be created under a linked folder is caught too).
 */
public final class WorkspacePaths {

  private final Path root;
  private final Path realRoot;

  public WorkspacePaths(Path root) {
    this.root = root.toAbsolutePath().normalize();
    try {
      this.realRoot = this.root.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("the workspace " + this.root + " does not exist", e);
    }
  }

  public Path root() {
    return root;
  }

  /**
   * The confined absolute path for {@code given}.
   *
   * @throws ToolException when the path is blank, malformed or leads outside the workspace
   */
  public Path resolve(String given) {
    if (given == null || given.isBlank()) {
      throw new ToolException("a path is required");
    }
    Path candidate;
    try {
      Path path = Path.of(given.strip());
      candidate = path.isAbsolute() ? rebase(path.normalize()) : root.resolve(path).normalize();
    } catch (InvalidPathException e) {
      throw new ToolException("'" + given + "' is not a valid path");
    }
    if (!candidate.startsWith(root)) {
      throw outside(given);
    }
    checkLinks(candidate, given);
    return candidate;
  }

  /**
   * How a path under the workspace is shown: relative, with {@code /} separators; "." for the root.
   */
  public String relative(Path path) {
    String relative = slashSeparated(root.relativize(path.toAbsolutePath().normalize()));
    return relative.isEmpty() ? "." : relative;
  }

  /**
   * A relative path with {@code /} between its names. Only the file system's own separator is
   * replaced: on Linux a {@code \\} is an ordinary character of a file name ({@code a\\b.txt}).
   */
  public static String slashSeparated(Path relative) {
    return relative.toString().replace(relative.getFileSystem().getSeparator(), "/");
  }

  /** An absolute path spelled through the real workspace folder is the same place. */
  private Path rebase(Path absolute) {
    if (!absolute.startsWith(root) && absolute.startsWith(realRoot)) {
      return root.resolve(realRoot.relativize(absolute));
    }
    return absolute;
  }

  private void checkLinks(Path candidate, String given) {
    Path existing = candidate;
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      throw outside(given);
    }
    if (Files.isSymbolicLink(existing) && !Files.exists(existing)) {
      // A dangling link: writing through it would create its target, wherever that is.
      throw new ToolException("'" + given + "' is a symbolic link to a path that does not exist");
    }
    try {
      if (!existing.toRealPath().startsWith(realRoot)) {
        throw outside(given);
      }
    } catch (IOException e) {
      throw new ToolException("cannot resolve '" + given + "': " + e.getMessage());
    }
  }

  private static ToolException outside(String given) {
    return new ToolException(
        "'" + given + "' is outside the workspace; use a path relative to the workspace");
  }
}
