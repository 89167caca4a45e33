package dev.threadline.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.hashing.Sha256;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ApiKeySecretTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  @Test
  void readsBase64DataAsTheApiServerStoresIt() {
    Secret secret = ApiKeys.keySecret("ns", "alice", "tl_key");

    ApiKeySecret key = ApiKeySecret.from(secret).orElseThrow();

    assertThat(key.user()).isEqualTo("alice");
    assertThat(key.sha256()).isEqualTo(Sha256.hex("tl_key"));
    assertThat(key.isValidAt(NOW)).isTrue();
  }

  @Test
  void readsStringDataAndNormalisesTheHash() {
    Secret secret = stringData("bob", " " + Sha256.hex("k").toUpperCase() + "\n", null);

    assertThat(ApiKeySecret.from(secret).orElseThrow().sha256()).isEqualTo(Sha256.hex("k"));
    assertThat(ApiKeySecret.hashOf(secret)).isEqualTo(Sha256.hex("k"));
  }

  @Test
  void expiryIsExclusiveAndAcceptsOffsets() {
    assertThat(withExpiry("2026-06-01T12:00:01Z").isValidAt(NOW)).isTrue();
    assertThat(withExpiry("2026-06-01T12:00:00Z").isValidAt(NOW)).isFalse();
    assertThat(withExpiry("2026-06-01T14:00:00+02:00").isValidAt(NOW)).isFalse();
    assertThat(withExpiry("2026-06-01T15:00:00+02:00").isValidAt(NOW)).isTrue();
  }

  @Test
  void unreadableExpiryCountsAsExpired() {
    assertThat(withExpiry("next tuesday").isValidAt(NOW)).isFalse();
  }

  @Test
  void secretWithoutUserOrHashIsNoKey() {
    assertThat(ApiKeySecret.from(stringData(null, "abc", null))).isEmpty();
    assertThat(ApiKeySecret.from(stringData("alice", null, null))).isEmpty();
    assertThat(ApiKeySecret.from(stringData("alice", " ", null))).isEmpty();
  }

  private static ApiKeySecret withExpiry(String expiresAt) {
    return ApiKeySecret.from(stringData("alice", "abc", expiresAt)).orElseThrow();
  }

  private static Secret stringData(String user, String sha256, String expiresAt) {
    SecretBuilder builder = new SecretBuilder().withNewMetadata().withName("k").endMetadata();
    if (user != null) {
      builder.addToStringData("user", user);
    }
    if (sha256 != null) {
      builder.addToStringData("sha256", sha256);
    }
    if (expiresAt != null) {
      builder.addToStringData("expiresAt", expiresAt);
    }
    return builder.build();
  }
}
