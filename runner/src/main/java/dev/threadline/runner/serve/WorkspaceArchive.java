package dev.threadline.runner.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * The whole workspace as one zip, out and back in: how a thread's files reach a sandbox that was
 * started before anyone knew the thread (a warm-pool sandbox). Regular files and folders only;
 * symbolic links are left out (they could point anywhere on the way back in). A restore replaces
 * the workspace's contents; every entry must stay inside the workspace.
 */
final class WorkspaceArchive {
  private final Path workspace;

  WorkspaceArchive(Path workspace) {
    this.workspace = workspace.toAbsolutePath().normalize();
  }

  void write(OutputStream out) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      Files.walkFileTree(
          workspace,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
                throws IOException {
              if (!dir.equals(workspace)) {
                zip.putNextEntry(new ZipEntry(name(dir) + "/"));
                zip.closeEntry();
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              if (attributes.isRegularFile()) {
                ZipEntry entry = new ZipEntry(name(file));
                entry.setLastModifiedTime(attributes.lastModifiedTime());
                zip.putNextEntry(entry);
                Files.copy(file, zip);
                zip.closeEntry();
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE; // gone or unreadable: left out
            }
          });
    }
  }

  /**
   * Replaces the workspace's contents with the archive's.
   *
   * @param maxBytes the most the unpacked files may hold together
   */
  void restore(InputStream in, long maxBytes) throws IOException {
    clear();
    long total = 0;
    try (ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        Path target = workspace.resolve(entry.getName()).normalize();
        if (!target.startsWith(workspace) || target.equals(workspace)) {
          throw FileApiException.badRequest("archive entry outside the workspace: " + entry);
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
          continue;
        }
        Files.createDirectories(target.getParent());
        try (OutputStream file = Files.newOutputStream(target)) {
          byte[] buffer = new byte[64 * 1024];
          for (int read = zip.read(buffer); read != -1; read = zip.read(buffer)) {
            total += read;
            if (total > maxBytes) {
              throw FileApiException.tooLarge(maxBytes);
            }
            file.write(buffer, 0, read);
          }
        }
        if (entry.getLastModifiedTime() != null) {
          Files.setLastModifiedTime(target, entry.getLastModifiedTime());
        }
      }
    } catch (java.util.zip.ZipException e) {
      throw FileApiException.badRequest("the body is not a zip archive: " + e.getMessage());
    }
  }

  private void clear() throws IOException {
    List<Path> children;
    try (Stream<Path> listed = Files.list(workspace)) {
      children = listed.toList();
    }
    for (Path child : children) {
      delete(child);
    }
  }

  private static void delete(Path path) throws IOException {
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> listed = Files.list(path)) {
        for (Path child : listed.toList()) {
          delete(child);
        }
      }
    }
    Files.deleteIfExists(path);
  }

  private String name(Path path) {
    return workspace.relativize(path).toString().replace('\\', '/');
  }
}
