package dev.threadline.runner.workspace;

import dev.threadline.core.hashing.Sha256;
import dev.threadline.runner.tools.WorkspacePaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The regular files of a workspace at one moment: each file's size and content hash, and the
 * content itself for files small enough to diff later. {@code .git} folders and symbolic links are
 * left out. Contents are kept up to a total budget, so a workspace full of dependencies cannot
 * exhaust memory; past it, a change is still seen (by hash) but its lines are not counted.
 */
public final class WorkspaceSnapshot {

  /** Files larger than this are compared by hash only, and never shown. */
  public static final long MAX_CONTENT_BYTES = 1024 * 1024;

  /** The most content bytes one snapshot keeps. */
  static final long CONTENT_BUDGET_BYTES = 64L * 1024 * 1024;

  private static final Logger log = LoggerFactory.getLogger(WorkspaceSnapshot.class);

  /**
   * One file.
   *
   * @param size its size in bytes
   * @param sha256 its content hash
   * @param content its bytes, or null when too large or over the snapshot's budget
   */
  public record FileState(long size, byte[] sha256, byte[] content) {
    boolean sameContentAs(FileState other) {
      return size == other.size && Arrays.equals(sha256, other.sha256);
    }
  }

  private final Map<String, FileState> files;

  private WorkspaceSnapshot(Map<String, FileState> files) {
    this.files = Collections.unmodifiableMap(files);
  }

  /** The files under {@code root}, keyed by their path relative to it with {@code /} separators. */
  public static WorkspaceSnapshot take(Path root) {
    Map<String, FileState> files = new TreeMap<>();
    long[] kept = {0};
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return dir.getFileName() != null
                      && dir.getFileName().toString().equals(".git")
                      && !dir.equals(root)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (!attrs.isRegularFile()) {
                return FileVisitResult.CONTINUE;
              }
              boolean keep =
                  attrs.size() <= MAX_CONTENT_BYTES
                      && kept[0] + attrs.size() <= CONTENT_BUDGET_BYTES;
              try {
                FileState state = read(file, attrs.size(), keep);
                if (state.content() != null) {
                  kept[0] += state.content().length;
                }
                files.put(WorkspacePaths.slashSeparated(root.relativize(file)), state);
              } catch (IOException e) {
                log.warn("Cannot read {} for the workspace diff: {}", file, e.getMessage());
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              log.warn("Cannot visit {} for the workspace diff: {}", file, e.getMessage());
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot walk the workspace " + root, e);
    }
    return new WorkspaceSnapshot(files);
  }

  public Map<String, FileState> files() {
    return files;
  }

  private static FileState read(Path file, long size, boolean keepContent) throws IOException {
    if (keepContent) {
      byte[] content = Files.readAllBytes(file);
      return new FileState(content.length, Sha256.newDigest().digest(content), content);
    }
    MessageDigest digest = Sha256.newDigest();
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[64 * 1024];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
    }
    return new FileState(size, digest.digest(), null);
  }
}
