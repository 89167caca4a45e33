package dev.threadline.local.kubelet.limits;

import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * The kubelet's eviction for disk, as a cluster's kubelet does it for {@code ephemeral-storage} and
 * {@code emptyDir.sizeLimit}: folders on the host's disk cannot be given a quota without
 * privileges, so their usage is measured every few seconds and the Pod is evicted once one is over
 * its bound. A single file cannot outrun the measurement by much: {@code RLIMIT_FSIZE} stops each
 * file at the Pod's {@code ephemeral-storage} limit.
 *
 * <p>Each measurement is bounded in work: it stops at the bound, and counts at most {@link
 * #MAX_ENTRIES} files and folders (more is over the bound too, as a cluster's kubelet evicts for
 * inodes).
 */
public final class StorageWatch {
  /** Files and folders one measurement visits at most. */
  public static final int MAX_ENTRIES = 500_000;

  /**
   * A bound on the folders' usage together.
   *
   * @param message the Pod's status message when it is evicted for this bound
   */
  public record Bound(List<Path> folders, long bytes, String message) {
    public Bound {
      folders = List.copyOf(folders);
    }
  }

  private final List<Bound> bounds;

  public StorageWatch(List<Bound> bounds) {
    this.bounds = List.copyOf(bounds);
  }

  public boolean watches() {
    return !bounds.isEmpty();
  }

  /** The message of the first bound the folders are over now, if any. */
  public Optional<String> exceeded() {
    for (Bound bound : bounds) {
      Usage usage = new Usage(bound.bytes());
      for (Path folder : bound.folders()) {
        usage.add(folder);
      }
      if (usage.over()) {
        return Optional.of(bound.message());
      }
    }
    return Optional.empty();
  }

  /** Bytes in files, counted until they pass the limit or too many entries were seen. */
  private static final class Usage extends SimpleFileVisitor<Path> {
    private final long limit;
    private long bytes;
    private int entries;

    Usage(long limit) {
      this.limit = limit;
    }

    void add(Path folder) {
      if (over() || !Files.exists(folder)) {
        return;
      }
      try {
        Files.walkFileTree(folder, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE, this);
      } catch (IOException e) {
        // a folder that vanished while being measured holds nothing any more
      }
    }

    boolean over() {
      return bytes > limit || entries > MAX_ENTRIES;
    }

    @Override
    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
      entries++;
      return over() ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
      entries++;
      if (attributes.isRegularFile()) {
        bytes += attributes.size();
      }
      return over() ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException e) {
      return FileVisitResult.CONTINUE;
    }
  }
}
