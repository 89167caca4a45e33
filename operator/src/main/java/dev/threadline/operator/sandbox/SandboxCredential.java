package dev.threadline.operator.sandbox;

import dev.threadline.core.containers.ContainerObjects;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * A sandbox's credential: 32 random bytes in a Secret of its own, mounted into the sandbox Pod as a
 * file (the runner's {@code serve --token-file} checks every call against it) and read by the
 * sandbox's one caller (the worker for a run, the api-server for a container). Made once, never
 * rotated while the sandbox lives; deleted with it.
 */
public final class SandboxCredential {
  /** The Secret's key, and the file's name in the Pod. */
  public static final String KEY = ContainerObjects.TOKEN_KEY;

  private static final SecureRandom RANDOM = new SecureRandom();

  private SandboxCredential() {}

  /** A new Secret with a fresh credential. */
  public static Secret secret(ObjectMeta metadata) {
    byte[] token = new byte[32];
    RANDOM.nextBytes(token);
    String credential = Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    return new SecretBuilder()
        .withMetadata(metadata)
        .withType("Opaque")
        // data, not stringData: every API (and the test mocks) stores it as given.
        .addToData(
            KEY, Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.US_ASCII)))
        .build();
  }

  /** The credential a Secret made by {@link #secret} holds. */
  public static Optional<String> read(Secret secret) {
    if (secret == null || secret.getData() == null || secret.getData().get(KEY) == null) {
      return Optional.empty();
    }
    return Optional.of(
        new String(
            Base64.getDecoder().decode(secret.getData().get(KEY)), StandardCharsets.US_ASCII));
  }
}
