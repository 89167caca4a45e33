package dev.threadline.core.environment;

import dev.threadline.core.hashing.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The content hash of an environment image: what {@code status.buildHash} holds and what the image
 * tag ends with. Two specs with the same hash build the same image, so a build is skipped when the
 * hash of the last successful build is unchanged (unless forced).
 *
 * <p>It covers everything that shapes the image: the rendered Dockerfile (base image, runtimes with
 * their pinned releases, packages, extensions, setup scripts, runner section) and the runner image
 * reference. Map-shaped input is order-insensitive because the renderer writes runtimes in catalog
 * order. The value is the first 16 hex digits (64 bits) of a SHA-256: short enough for a readable
 * tag, and a collision between two configurations is negligible at any realistic number of
 * environments. The framing is versioned ({@code v1}) so that a future change of scheme cannot
 * collide with old values.
 *
 * @param value 16 lower-case hex digits
 */
public record BuildHash(String value) {

  public static final int LENGTH = 16;
  private static final Pattern SHAPE = Pattern.compile("[0-9a-f]{" + LENGTH + "}");

  public BuildHash {
    if (value == null || !SHAPE.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "A build hash is "
              + LENGTH
              + " lower-case hex digits, not "
              + MessageText.literal(value));
    }
  }

  /**
   * The hash of a rendered Dockerfile (without its own hash comment, which would be circular) and
   * the runner image it copies from.
   */
  public static BuildHash of(String dockerfile, String runnerImage) {
    var digest = Sha256.newDigest();
    update(digest, "threadline-build-hash/v1");
    update(digest, runnerImage);
    update(digest, dockerfile);
    var hex = HexFormat.of().formatHex(digest.digest());
    return new BuildHash(hex.substring(0, LENGTH));
  }

  @Override
  public String toString() {
    return value;
  }

  // Length-prefixed, so that moving text from one part to the next cannot give the same bytes.
  private static void update(MessageDigest digest, String part) {
    var bytes = part.getBytes(StandardCharsets.UTF_8);
    digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
    digest.update(bytes);
  }
}
