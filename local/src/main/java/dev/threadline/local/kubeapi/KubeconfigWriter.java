package dev.threadline.local.kubeapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a kubeconfig that points kubectl (or any client) at the embedded API over TLS (trusting
 * its certificate), with a bearer token (the administrator's, or a user's); the file is readable by
 * its owner only.
 */
final class KubeconfigWriter {
  static final String CONTEXT = "threadline-local";

  private KubeconfigWriter() {}

  static Path write(Path file, String serverUrl, String caData, String token, String namespace) {
    String yaml =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: %1$s
          cluster:
            server: %2$s
            certificate-authority-data: %4$s
        users:
        - name: %1$s
          user:
            token: %3$s
        contexts:
        - name: %1$s
          context:
            cluster: %1$s
            user: %1$s
            namespace: %5$s
        current-context: %1$s
        preferences: {}
        """
            .formatted(CONTEXT, serverUrl, token, caData, namespace);
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      // Only its owner may read it: it holds a token.
      Files.deleteIfExists(file);
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, yaml);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the kubeconfig " + file, e);
    }
  }
}
