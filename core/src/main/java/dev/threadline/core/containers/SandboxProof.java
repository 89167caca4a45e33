package dev.threadline.core.containers;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How a sandbox proves that it holds its credential without showing it: asked {@code GET
 * /health?challenge=<random>}, it answers {@code proof}, the HMAC-SHA256 of the challenge keyed
 * with the credential it accepts. Whoever knows the credential (the worker, the api-server, the
 * local kubelet that mounted it) checks the proof; another process on the sandbox's address (a port
 * taken by someone else) cannot make it, and the challenge is fresh each time, so an answer cannot
 * be replayed.
 */
public final class SandboxProof {
  /** The query parameter of {@code /health} that asks for a proof. */
  public static final String CHALLENGE = "challenge";

  /** The field of {@code /health}'s answer that holds it. */
  public static final String PROOF = "proof";

  /** The longest challenge a sandbox answers. */
  public static final int MAX_CHALLENGE = 128;

  /**
   * A Pod annotation naming the volume and key of the sandbox's mounted credential ({@code
   * <volume>/<key>}): a kubelet that reads it (the local mode's) counts the Pod ready only once the
   * readiness answer proves that credential. A reference, never the value.
   */
  public static final String READINESS_ANNOTATION = "threadline.dev/readiness-proof";

  private static final SecureRandom RANDOM = new SecureRandom();

  private SandboxProof() {}

  /** A fresh random challenge (URL-safe). */
  public static String challenge() {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The proof for {@code challenge} by a holder of {@code credential} (as its file holds it). */
  public static String of(String credential, String challenge) {
    return of(credential.strip().getBytes(StandardCharsets.UTF_8), challenge);
  }

  /** The proof for {@code challenge} by a holder of the credential's bytes. */
  public static String of(byte[] credential, String challenge) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(credential, "HmacSHA256"));
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(mac.doFinal(challenge.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  /** Whether {@code proof} proves {@code credential} for {@code challenge} (constant time). */
  public static boolean proves(String credential, String challenge, String proof) {
    return proof != null
        && MessageDigest.isEqual(
            of(credential, challenge).getBytes(StandardCharsets.US_ASCII),
            proof.getBytes(StandardCharsets.US_ASCII));
  }
}
