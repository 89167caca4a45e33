package dev.threadline.runner.serve;

import com.sun.net.httpserver.Headers;
import dev.threadline.core.containers.ContainerObjects;
import dev.threadline.core.containers.SandboxProof;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * The sandbox's credential: the operator puts a random token in the sandbox's own Secret, mounted
 * here ({@code --token-file}) and known to the worker and the api-server only. Other Pods that can
 * reach the port do not have it. Callers send it as {@code Authorization: Bearer <token>}; the
 * api-server's {@code X-Threadline-Token} header is still accepted. Compared in constant time.
 */
final class AccessToken {
  private static final String BEARER = "Bearer ";

  private final byte[] expected;

  private AccessToken(byte[] expected) {
    this.expected = expected;
  }

  static AccessToken of(String token) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("the access token is empty");
    }
    return new AccessToken(token.strip().getBytes(StandardCharsets.UTF_8));
  }

  static AccessToken fromFile(Path file) {
    if (file == null) {
      throw new IllegalArgumentException("--token-file is required: the sandbox runs commands");
    }
    try {
      return of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the access token " + file, e);
    }
  }

  /** The proof of holding this credential for {@code challenge} ({@link SandboxProof}). */
  String prove(String challenge) {
    return SandboxProof.of(expected, challenge);
  }

  /** Whether the request carries this credential. */
  boolean accepts(Headers headers) {
    String authorization = headers.getFirst("Authorization");
    String presented =
        authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
            ? authorization.substring(BEARER.length())
            : headers.getFirst(ContainerObjects.TOKEN_HEADER);
    return presented != null
        && MessageDigest.isEqual(expected, presented.strip().getBytes(StandardCharsets.UTF_8));
  }
}
