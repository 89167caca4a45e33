package dev.threadline.runner.serve;

import dev.threadline.runner.tools.ToolException;
import dev.threadline.runner.tools.WorkspacePaths;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The file operations of the file API, every path confined to the workspace by the runner's {@link
 * WorkspacePaths} ({@code ..}, absolute paths outside it and symbolic links that lead out are
 * refused). Uploads are written to a temporary file next to the target and moved into place, so a
 * reader never sees half a file and a failed upload leaves the old content.
 */
final class WorkspaceFiles {
  private final WorkspacePaths paths;

  WorkspaceFiles(Path workspace) {
    this.paths = new WorkspacePaths(workspace);
  }

  /** The entries of a folder, folders first, then by name. */
  List<FileEntry> list(String path) throws IOException {
    Path folder = resolve(path == null ? "." : path);
    if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
      throw FileApiException.notFound("'" + path + "' does not exist");
    }
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      throw FileApiException.badRequest("'" + path + "' is not a directory; download it instead");
    }
    List<FileEntry> entries = new ArrayList<>();
    try (Stream<Path> children = Files.list(folder)) {
      for (Path child : children.toList()) {
        entries.add(entry(child));
      }
    }
    entries.sort(
        Comparator.comparing((FileEntry e) -> !"directory".equals(e.type()))
            .thenComparing(FileEntry::name));
    return entries;
  }

  /** A regular file to send as it is. */
  Path file(String path) {
    Path file = resolve(path);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      throw FileApiException.notFound("'" + path + "' does not exist");
    }
    if (!Files.isRegularFile(file)) {
      throw FileApiException.badRequest("'" + path + "' is not a file");
    }
    return file;
  }

  /**
   * Writes {@code content} to {@code path}, creating missing folders and replacing an existing
   * file; at most {@code maxBytes} are accepted.
   *
   * @return whether the file is new
   */
  Written write(String path, InputStream content, long maxBytes) throws IOException {
    Path target = resolve(path);
    if (target.equals(paths.root())) {
      throw FileApiException.badRequest("path must name a file, not the workspace");
    }
    if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
      throw FileApiException.conflict("'" + path + "' is a directory");
    }
    Path parent = target.getParent();
    try {
      Files.createDirectories(parent);
    } catch (FileAlreadyExistsException e) {
      throw FileApiException.conflict("a parent of '" + path + "' is a file");
    }
    boolean created = !Files.exists(target, LinkOption.NOFOLLOW_LINKS);
    Path temporary = Files.createTempFile(parent, ".upload-", ".part");
    try {
      long size = copyBounded(content, temporary, maxBytes);
      move(temporary, target);
      return new Written(paths.relative(target), size, created);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** Deletes a file, or a folder with everything in it. */
  String delete(String path) throws IOException {
    Path target = resolve(path);
    if (target.equals(paths.root())) {
      throw FileApiException.badRequest(
          "path must name a file or folder inside the workspace, not the workspace");
    }
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      throw FileApiException.notFound("'" + path + "' does not exist");
    }
    if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
      deleteTree(target);
    } else {
      Files.delete(target);
    }
    return paths.relative(target);
  }

  String relative(Path path) {
    return paths.relative(path);
  }

  private Path resolve(String path) {
    try {
      return paths.resolve(path);
    } catch (ToolException refused) {
      throw FileApiException.badRequest(refused.getMessage());
    }
  }

  private FileEntry entry(Path child) throws IOException {
    BasicFileAttributes attributes =
        Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    String type =
        attributes.isSymbolicLink() ? "symlink" : attributes.isDirectory() ? "directory" : "file";
    return new FileEntry(
        child.getFileName().toString(),
        paths.relative(child),
        type,
        attributes.isRegularFile() ? attributes.size() : 0,
        attributes.lastModifiedTime().toInstant().toString());
  }

  private static long copyBounded(InputStream content, Path target, long maxBytes)
      throws IOException {
    byte[] buffer = new byte[64 * 1024];
    long total = 0;
    try (var out = Files.newOutputStream(target)) {
      for (int read; (read = content.read(buffer)) >= 0; ) {
        total += read;
        if (total > maxBytes) {
          throw FileApiException.tooLarge(maxBytes);
        }
        out.write(buffer, 0, read);
      }
    }
    return total;
  }

  private static void move(Path source, Path target) throws IOException {
    try {
      Files.move(
          source, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void deleteTree(Path folder) throws IOException {
    // Links are removed, never followed: what they point to stays.
    Files.walkFileTree(
        folder,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException failure)
              throws IOException {
            if (failure != null) {
              throw failure;
            }
            try {
              Files.delete(dir);
            } catch (DirectoryNotEmptyException e) {
              throw FileApiException.conflict(
                  "'" + dir.getFileName() + "' changed while it was deleted");
            } catch (NoSuchFileException gone) {
              // deleted meanwhile: the goal is reached
            }
            return FileVisitResult.CONTINUE;
          }
        });
  }

  /** An upload's result. */
  record Written(String path, long size, boolean created) {}
}
