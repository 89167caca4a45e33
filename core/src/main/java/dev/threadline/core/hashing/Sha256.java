package dev.threadline.core.hashing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256, the one hash Threadline uses: for names that must be stable and short (label values,
 * Secret keys, record names), for fingerprints (build hashes, spec hashes, workspace files) and for
 * stored API keys. No dependencies: the runner uses it too.
 */
public final class Sha256 {
  private Sha256() {}

  /** A new digest, for content hashed in parts or streamed. */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  /**
   * Lower-case hex of the SHA-256 of {@code text}'s UTF-8 bytes (what {@code sha256sum} prints).
   */
  public static String hex(String text) {
    return HexFormat.of().formatHex(newDigest().digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
