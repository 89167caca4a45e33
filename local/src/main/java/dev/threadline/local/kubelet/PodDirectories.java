package dev.threadline.local.kubelet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The layout of the kubelet's data folder: {@code pods/<ns>/<pod>/} holds a Pod's volumes, home,
 * temporary folder, container filesystem stand-in and logs; {@code volumes/<ns>/<claim>} holds a
 * claim's files, which outlive Pods.
 */
final class PodDirectories {
  private final Path dataDir;

  PodDirectories(Path dataDir) {
    this.dataDir = dataDir.toAbsolutePath().normalize();
  }

  Path pod(String namespace, String pod) {
    return dataDir.resolve("pods").resolve(segment(namespace)).resolve(segment(pod));
  }

  Path volume(String namespace, String pod, String volume) {
    return pod(namespace, pod).resolve("volumes").resolve(segment(volume));
  }

  Path volumes(String namespace, String pod) {
    return pod(namespace, pod).resolve("volumes");
  }

  Path home(String namespace, String pod) {
    return pod(namespace, pod).resolve("home");
  }

  Path tmp(String namespace, String pod) {
    return pod(namespace, pod).resolve("tmp");
  }

  /** Where container paths that no volume covers live (a working directory such as /workspace). */
  Path rootfs(String namespace, String pod) {
    return pod(namespace, pod).resolve("rootfs");
  }

  Path log(String namespace, String pod, String container) {
    return pod(namespace, pod).resolve(segment(container) + ".log");
  }

  Path claim(String namespace, String claim) {
    return dataDir.resolve("volumes").resolve(segment(namespace)).resolve(segment(claim));
  }

  /** Object names are DNS labels, but a path segment must never climb out of the data folder. */
  private static String segment(String name) {
    if (name == null
        || name.isEmpty()
        || name.contains("/")
        || name.contains("\\")
        || name.equals(".")
        || name.equals("..")) {
      throw new IllegalArgumentException("not a valid object name for a folder: " + name);
    }
    return name;
  }

  static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + root, e);
    }
  }
}
