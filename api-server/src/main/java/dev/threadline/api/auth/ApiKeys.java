package dev.threadline.api.auth;

import dev.threadline.core.hashing.Sha256;
import dev.threadline.crds.common.Labels;
import dev.threadline.crds.common.Timestamps;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Issues API keys and the Secrets that register them. A key is shown once to its owner; the Secret
 * stores only its SHA-256, so a leaked Secret does not leak the key.
 */
public final class ApiKeys {
  /** Every key starts with this, so leaked keys are recognisable by secret scanners. */
  public static final String PREFIX = "tl_";

  /** Secret data key: the user id the key belongs to. */
  public static final String USER = "user";

  /** Secret data key: lower-case hex SHA-256 of the key. */
  public static final String SHA256 = "sha256";

  /** Optional Secret data key: RFC 3339 instant after which the key is refused. */
  public static final String EXPIRES_AT = "expiresAt";

  /** Optional Secret data key: comma list of {@link Scope}s; absent means every scope. */
  public static final String SCOPES = "scopes";

  /**
   * Optional Secret data key: the key's own rate limit, {@code <burst>/<per minute>}, e.g. {@code
   * 20/60}.
   */
  public static final String RATE_LIMIT = "rateLimit";

  private static final char[] BASE62 =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final int RANDOM_CHARS = 40;
  private static final SecureRandom RANDOM = new SecureRandom();

  private ApiKeys() {}

  /** A fresh key: {@code tl_} and 40 random base62 characters (~238 bits). */
  public static String newKey() {
    StringBuilder key = new StringBuilder(PREFIX.length() + RANDOM_CHARS).append(PREFIX);
    for (int i = 0; i < RANDOM_CHARS; i++) {
      key.append(BASE62[RANDOM.nextInt(BASE62.length)]);
    }
    return key.toString();
  }

  /**
   * A fresh key for one deployment environment ({@code dev}, {@code test} or {@code prod}): {@code
   * tl_<env>_} and 40 random base62 characters. Refused by API servers of other environments.
   */
  public static String newKey(String environment) {
    if (KeyEnvironment.configured(environment).isEmpty()) {
      throw new IllegalArgumentException("environment must be dev, test or prod");
    }
    return PREFIX + environment + "_" + newKey().substring(PREFIX.length());
  }

  /** The Secret that registers {@code key} for {@code user}, without expiry. */
  public static Secret keySecret(String systemNamespace, String user, String key) {
    return keySecret(systemNamespace, user, key, null);
  }

  /**
   * The Secret that registers {@code key} for {@code user}; {@code expiresAt} may be null. Its name
   * derives from the hash, so registering the same key twice is a conflict, not a duplicate.
   */
  public static Secret keySecret(
      String systemNamespace, String user, String key, Instant expiresAt) {
    return keySecret(systemNamespace, user, key, expiresAt, Map.of());
  }

  /**
   * The Secret that registers {@code key}, with more optional data, e.g. {@link #SCOPES} or {@link
   * #RATE_LIMIT}.
   */
  public static Secret keySecret(
      String systemNamespace,
      String user,
      String key,
      Instant expiresAt,
      Map<String, String> options) {
    String hash = Sha256.hex(key);
    Map<String, String> data = new LinkedHashMap<>();
    data.put(USER, base64(user));
    data.put(SHA256, base64(hash));
    if (expiresAt != null) {
      data.put(EXPIRES_AT, base64(Timestamps.format(expiresAt)));
    }
    options.forEach((name, value) -> data.put(name, base64(value)));
    return new SecretBuilder()
        .withNewMetadata()
        .withNamespace(systemNamespace)
        .withName("api-key-" + hash.substring(0, 16))
        .addToLabels(Labels.API_KEY, "true")
        .addToLabels(Labels.MANAGED_BY, Labels.MANAGER)
        .endMetadata()
        .withType("Opaque")
        .withData(data)
        .build();
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
