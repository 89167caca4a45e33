package dev.threadline.local.kubeapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a kubeconfig that points kubectl (or any client) at the embedded API over plain HTTP. */
final class KubeconfigWriter {
  static final String CONTEXT = "threadline-local";

  private KubeconfigWriter() {}

  static Path write(Path file, String serverUrl) {
    String yaml =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: %1$s
          cluster:
            server: %2$s
        users:
        - name: %1$s
          user: {}
        contexts:
        - name: %1$s
          context:
            cluster: %1$s
            user: %1$s
            namespace: default
        current-context: %1$s
        preferences: {}
        """
            .formatted(CONTEXT, serverUrl);
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, yaml);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the kubeconfig " + file, e);
    }
  }
}
