package dev.threadline.runner.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * The shared secret between the api-server and this file API: the operator puts a random token in
 * the container's own Secret, mounted here and read by the api-server. Other Pods that can reach
 * the port do not have it. Compared in constant time.
 */
final class AccessToken {
  private final byte[] expected;

  private AccessToken(byte[] expected) {
    this.expected = expected;
  }

  /** No token: every caller is let in (a file API that only loopback reaches, or a test). */
  static AccessToken none() {
    return new AccessToken(null);
  }

  static AccessToken of(String token) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("the access token is empty");
    }
    return new AccessToken(token.strip().getBytes(StandardCharsets.UTF_8));
  }

  static AccessToken fromFile(Path file) {
    if (file == null) {
      return none();
    }
    try {
      return of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the access token " + file, e);
    }
  }

  boolean accepts(String presented) {
    if (expected == null) {
      return true;
    }
    return presented != null
        && MessageDigest.isEqual(expected, presented.strip().getBytes(StandardCharsets.UTF_8));
  }
}
