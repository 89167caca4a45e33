package dev.threadline.api.auth;

import dev.threadline.crds.common.Timestamps;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What an API key Secret says: whose key, its hash, when it expires, what it may do ({@code
 * scopes}, absent = everything) and its own rate limit ({@code rateLimit}, absent = the server's).
 * Reads {@code data} (base64, as the API server stores it) and falls back to {@code stringData}
 * (which a real API server folds into {@code data}, but a test double may keep as written).
 */
record ApiKeySecret(
    String secretName,
    String user,
    String sha256,
    String expiresAt,
    String scopes,
    String rateLimit) {

  /** The key's fields, or empty when the Secret lacks a user or a hash. */
  static Optional<ApiKeySecret> from(Secret secret) {
    String user = field(secret, ApiKeys.USER);
    String hash = field(secret, ApiKeys.SHA256);
    if (user == null || user.isBlank() || hash == null || hash.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(
        new ApiKeySecret(
            secret.getMetadata().getName(),
            user.strip(),
            normalizeHash(hash),
            field(secret, ApiKeys.EXPIRES_AT),
            field(secret, ApiKeys.SCOPES),
            field(secret, ApiKeys.RATE_LIMIT)));
  }

  /** The hash as the index stores it (lower case, trimmed), or null when absent. */
  static String hashOf(Secret secret) {
    String hash = field(secret, ApiKeys.SHA256);
    return hash == null ? null : normalizeHash(hash);
  }

  /**
   * Whether the key may be used at {@code now}. An expiry that cannot be parsed counts as expired:
   * a typo must not turn a rotated-out key into a key that never expires.
   */
  boolean isValidAt(Instant now) {
    if (expiresAt == null || expiresAt.isBlank()) {
      return true;
    }
    return Timestamps.parse(expiresAt.strip()).map(now::isBefore).orElse(false);
  }

  private static String normalizeHash(String hash) {
    return hash.strip().toLowerCase(Locale.ROOT);
  }

  private static String field(Secret secret, String key) {
    Map<String, String> data = secret.getData();
    if (data != null && data.get(key) != null) {
      try {
        return new String(
            Base64.getDecoder().decode(data.get(key).strip()), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException notBase64) {
        return null;
      }
    }
    Map<String, String> stringData = secret.getStringData();
    return stringData == null ? null : stringData.get(key);
  }
}
